import { expect, test } from 'vitest'
import * as constants from './constants.js'

test('default: the figures PRODUCT.md names, and no default wallet registry', () => {
  expect({ ...constants }).toEqual({
    WALLETS_PER_PAGE: 12,
    COPIED_NOTIFICATION_MS: 1200,
    MODAL_FADE_MS: 300,
    EXPLORER_ENTRIES: 100,
    EXPLORER_SDK: { type: 'pairlink', version: 'pairlink-modal-0.1.0' },
    EXPIRY_MARGIN_MS: 20_000,
  })
})

test("behavior: the version the explorer is told is the package's", async () => {
  const { version } = (await import('../package.json', { with: { type: 'json' } })).default
  expect(constants.EXPLORER_SDK.version).toBe(`pairlink-modal-${version}`)
})
