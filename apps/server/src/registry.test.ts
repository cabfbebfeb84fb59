import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { createRegistry, REFERENCE_WALLET_ID, readWalletIcon } from './registry.js'

const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const shippedIcons = fileURLToPath(new URL('../data/icons', import.meta.url))
const origin = 'https://pairlink.example'

describe('createRegistry', () => {
  test('default: no icon folder, no images (the vendored registry has none)', () => {
    const registry = createRegistry(registryFile, origin)
    for (const entry of Object.values(registry.listings)) expect(entry.image_url.sm).toBe('')
  })

  test('args: iconsDir — the reference wallet gets the icon the project ships, served by this server', () => {
    const registry = createRegistry(registryFile, `${origin}/`, shippedIcons)
    const url = `${origin}/registry/icons/${REFERENCE_WALLET_ID}.svg`
    expect(registry.listings[REFERENCE_WALLET_ID]?.image_url).toEqual({ sm: url, md: url, lg: url })
  })

  test("args: iconsDir — an operator's files, matched by wallet id; other files and ids are ignored", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pairlink-icons-'))
    const [rainbowId] = Object.entries(createRegistry(registryFile, origin).listings).find(
      ([, entry]) => entry.name === 'Rainbow',
    ) ?? ['']
    writeFileSync(join(dir, `${rainbowId}.png`), 'png')
    writeFileSync(join(dir, 'unknown-wallet.svg'), '<svg/>')
    writeFileSync(join(dir, 'notes.txt'), 'not an icon')
    const registry = createRegistry(registryFile, origin, dir)
    const withImages = Object.values(registry.listings).filter((entry) => entry.image_url.sm)
    expect(withImages.map((entry) => [entry.name, entry.image_url.sm])).toEqual([
      ['Rainbow', `${origin}/registry/icons/${rainbowId}.png`],
    ])
    expect(registry.count).toBe(58)
  })

  test('args: iconsDir that does not exist — no images, no error', () => {
    expect(createRegistry(registryFile, origin, join(tmpdir(), 'no-such-folder-xyz')).count).toBe(58)
  })
})

describe('readWalletIcon', () => {
  test('default: the file and its image type', () => {
    const icon = readWalletIcon(shippedIcons, `${REFERENCE_WALLET_ID}.svg`)
    expect(icon?.type).toBe('image/svg+xml')
    expect(icon?.body.toString()).toContain('<title>Pairlink Wallet</title>')
  })

  test.each(['../wallets.json', '..%2Fwallets.json', '.hidden.svg', 'a/b.svg', 'x.html', 'missing.svg', ''])(
    'error: %j is not served',
    (name) => {
      expect(readWalletIcon(shippedIcons, name)).toBeUndefined()
    },
  )
})
