import { fileURLToPath } from 'node:url'
import { bundle } from '@pairlink/test-kit/bundle'
import { expect, test } from 'vitest'
import * as v2 from './index.js'

test('exports', () => {
  expect(Object.keys(v2).sort()).toMatchInlineSnapshot(`
    [
      "RelayError",
      "RelayRefusedError",
      "SDK_ERRORS",
      "SIGN_ERRORS",
      "SignError",
      "abandon",
      "approve",
      "approveAuthenticate",
      "authenticate",
      "connect",
      "createSignClient",
      "disconnect",
      "emit",
      "extend",
      "getPendingAuthRequests",
      "getPendingRequests",
      "getSession",
      "getSessions",
      "pair",
      "ping",
      "reject",
      "rejectAuthenticate",
      "request",
      "respond",
      "update",
    ]
  `)
})

test('behavior: the v1 entry bundles no v2 code and no v2 crypto', async () => {
  const v1 = await bundle({ entry: fileURLToPath(new URL('../index.ts', import.meta.url)), external: ['ws'] })
  expect(v1.text).not.toContain('wc_sessionPropose')
  expect(v1.packages).not.toContain('@noble/curves')
  // The same check sees them in the v2 entry.
  const v2 = await bundle({ entry: fileURLToPath(new URL('./index.ts', import.meta.url)), external: ['ws'] })
  expect(v2.text).toContain('wc_sessionPropose')
  expect(v2.packages).toContain('@noble/curves')
})

test('behavior: a dapp importing the dapp actions ships no wallet action; the same check finds them when imported', async () => {
  const entry = JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)))
  const walletCode = [
    'approve',
    'respond',
    'emit',
    'update',
    'pair',
    'approveAuthenticate',
    'rejectAuthenticate',
  ].map((name) => `function ${name}(client`)
  const dapp = await bundle({
    contents: `export { createSignClient, connect, authenticate, request, ping, extend, disconnect, getSessions } from ${entry}`,
    external: ['ws'],
  })
  expect(dapp.text).toContain('function connect(client')
  expect(dapp.text).toContain('function authenticate(client')
  for (const text of walletCode) expect(dapp.text).not.toContain(text)
  const wallet = await bundle({
    contents: `export { createSignClient, pair, approve, reject, respond, emit, update, approveAuthenticate, rejectAuthenticate } from ${entry}`,
    external: ['ws'],
  })
  for (const text of walletCode) expect(wallet.text).toContain(text)
  expect(wallet.text).not.toContain('function connect(client')
  expect(wallet.text).not.toContain('function authenticate(client')
})
