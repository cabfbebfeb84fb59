import { describe, expect, test } from 'vitest'
import { describeMethod } from './describeMethod.js'

describe('describeMethod', () => {
  test.each([
    ['personal_sign', 'Sign messages (personal_sign)'],
    ['eth_signTypedData_v4', 'Sign typed data (eth_signTypedData_v4)'],
    ['eth_sendTransaction', 'Send transactions (eth_sendTransaction)'],
    ['wallet_switchEthereumChain', 'Switch networks (wallet_switchEthereumChain)'],
    ['wallet_getCallsStatus', 'wallet_getCallsStatus'],
    ['constructor', 'constructor'],
  ])('default: %s', (method, words) => {
    expect(describeMethod(method)).toBe(words)
  })
})
