import { expect, test } from 'vitest'
import * as constants from './constants.js'

test('default: the figures PRODUCT.md names', () => {
  expect({ ...constants }).toEqual({
    WALLETS_PER_PAGE: 12,
    COPIED_NOTIFICATION_MS: 1200,
    MODAL_FADE_MS: 300,
    DEFAULT_REGISTRY_URL: 'https://registry.walletconnect.com/api/v2/wallets',
    EXPIRY_MARGIN_MS: 20_000,
  })
})
