import { expect, test } from 'vitest'
import * as constants from './constants.js'

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
