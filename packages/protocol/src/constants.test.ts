import { expect, test } from 'vitest'
import * as constants from './constants.js'

test('default: the figures PRODUCT.md names', () => {
  expect(constants.HTTP_TIMEOUT_MS).toBe(60000)
  expect(constants.BLOCK_POLLING_INTERVAL_MS).toBe(4000)
  expect(constants.BLOCK_FETCH_RETRIES).toBe(5)
  expect(constants.BLOCK_FETCH_RETRY_DELAY_MS).toBe(1000)
  expect(constants.WALLETS_PER_PAGE).toBe(12)
  expect(constants.COPIED_NOTIFICATION_MS).toBe(1200)
  expect(constants.MODAL_FADE_MS).toBe(300)
})

test('default: the 1.8.0 signing methods, in order', () => {
  expect(constants.SIGNING_METHODS).toHaveLength(16)
  expect(constants.SIGNING_METHODS.slice(0, 9)).toEqual([
    'eth_sendTransaction',
    'eth_signTransaction',
    'eth_sign',
    'eth_signTypedData',
    'eth_signTypedData_v1',
    'eth_signTypedData_v2',
    'eth_signTypedData_v3',
    'eth_signTypedData_v4',
    'personal_sign',
  ])
})
