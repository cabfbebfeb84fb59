import { fileURLToPath } from 'node:url'
import { bundle as bundleWith } from '@pairlink/test-kit/bundle'
import { expect, test } from 'vitest'

const index = fileURLToPath(new URL('../index.ts', import.meta.url))

/** Bundles `import { … } from '@pairlink/client'` for browsers as an app's bundler would, unminified. */
async function bundle(names: string): Promise<string> {
  const { text } = await bundleWith({
    contents: `export { ${names} } from ${JSON.stringify(index)}`,
    external: ['ws', 'node:fs/promises', '@noble/ciphers', '@noble/hashes'],
  })
  return text
}

// What only the wallet actions contain: their function names and the error text only they throw.
const walletCode = [
  'function approveSession',
  'function rejectSession',
  'function approveRequest',
  'function rejectRequest',
  'function updateSession',
  'No session request to answer',
]

test('behavior: a dapp importing createClient and dappActions ships no wallet action', async () => {
  const dapp = await bundle('createClient, dappActions')
  expect(dapp).toContain('function signPersonalMessage')
  for (const text of walletCode) expect(dapp).not.toContain(text)
})

test('behavior: the same check finds the wallet actions where they are imported', async () => {
  const wallet = await bundle('createClient, walletActions')
  for (const text of walletCode) expect(wallet).toContain(text)
  expect(wallet).not.toContain('function signPersonalMessage')
})
