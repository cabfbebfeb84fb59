import { expect, test } from 'vitest'
import { WALLET_TIMEOUT_MS, walletTimeout } from './createPairlink.js'

test('default: the wallet time-out is 5 minutes', () => {
  expect(WALLET_TIMEOUT_MS).toBe(300_000)
  expect(walletTimeout('')).toBe(WALLET_TIMEOUT_MS)
  expect(walletTimeout('?other=1')).toBe(WALLET_TIMEOUT_MS)
})

test('args: ?walletTimeout=<ms> sets it; anything but a positive whole number is ignored', () => {
  expect(walletTimeout('?walletTimeout=2000')).toBe(2_000)
  for (const bad of ['0', '-5', '1.5', 'abc', '']) {
    expect(walletTimeout(`?walletTimeout=${bad}`)).toBe(WALLET_TIMEOUT_MS)
  }
})
