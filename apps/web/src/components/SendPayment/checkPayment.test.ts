import { expect, test } from 'vitest'
import { checkPayment } from './checkPayment.js'

const ETH = 10n ** 18n

test('default: an amount the balance covers on the app’s chain goes to the wallet', () => {
  expect(checkPayment({ value: ETH / 100n, balance: ETH, chainId: 31337, appChainId: 31337 })).toBeUndefined()
  // Unknown balance: the wallet decides.
  expect(checkPayment({ value: ETH, balance: undefined, chainId: 31337, appChainId: 31337 })).toBeUndefined()
})

test('error: more than the balance is insufficient funds', () => {
  expect(checkPayment({ value: 2n * ETH, balance: ETH, chainId: 31337, appChainId: 31337 })).toBe(
    'Not enough ETH to pay this amount plus the network fee.',
  )
  expect(checkPayment({ value: ETH, balance: ETH, chainId: 31337, appChainId: 31337 })).toMatch(
    /^Not enough ETH/,
  )
})

test('error: a wallet on another chain is said so, whatever the amount', () => {
  expect(checkPayment({ value: 1n, balance: ETH, chainId: 11155111, appChainId: 31337 })).toBe(
    'The wallet is on another chain (Sepolia (11155111)): payments here go on Anvil dev chain (31337). Switch the wallet back first.',
  )
})

test('args: protocol 2 — the session is on another chain, and the app (Switch chain) moves it back', () => {
  expect(checkPayment({ value: 1n, balance: ETH, chainId: 1, appChainId: 31337, protocol: 2 })).toBe(
    'This session is on another chain (Ethereum (1)): payments here go on Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) first.',
  )
  // v1, said or by default, keeps the wallet's text.
  expect(checkPayment({ value: 1n, balance: ETH, chainId: 1, appChainId: 31337, protocol: 1 })).toBe(
    checkPayment({ value: 1n, balance: ETH, chainId: 1, appChainId: 31337 }),
  )
  // The same chain: only the amount matters, whatever the protocol.
  expect(
    checkPayment({ value: 2n * ETH, balance: ETH, chainId: 31337, appChainId: 31337, protocol: 2 }),
  ).toBe('Not enough ETH to pay this amount plus the network fee.')
})
