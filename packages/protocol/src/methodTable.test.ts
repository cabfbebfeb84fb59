import { describe, expect, test } from 'vitest'
import { ANSWERED_METHODS, APPROVAL_METHODS, type MethodTable } from './methods.js'
import * as constants from './methodTable.js'
import { METHODS, SIGNING_METHODS, selectMethods } from './methodTable.js'

// Moved from constants.test.ts with SIGNING_METHODS, which is made from the method table now.
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

describe('METHODS', () => {
  test('default: v1 signing methods come first, in their order', () => {
    expect(Object.keys(METHODS).slice(0, SIGNING_METHODS.length)).toEqual(SIGNING_METHODS)
  })

  test('behavior: no method the person approves is one the node is asked for', () => {
    const table: MethodTable = METHODS
    const both = Object.keys(table).filter((method) => table[method]?.approval && table[method]?.node)
    expect(both).toEqual([])
  })

  test('behavior: a method is in one of the two lists of rows only', () => {
    expect(Object.keys(APPROVAL_METHODS).filter((method) => Object.hasOwn(ANSWERED_METHODS, method))).toEqual(
      [],
    )
  })

  test('behavior: eth_sendRawTransaction is the only broadcast', () => {
    expect(selectMethods(METHODS, 'node', 'broadcast')).toEqual(['eth_sendRawTransaction'])
  })
})

describe('selectMethods', () => {
  const table = {
    a_sign: { approval: true, wallet: 'sign' },
    b_read: { node: 'read' },
    c_answer: { wallet: 'answer', node: 'read' },
    d_push: { approval: true },
  } as const satisfies MethodTable

  test('default: the methods with the field set to the value, in the table order', () => {
    expect(selectMethods(table, 'approval', true)).toEqual(['a_sign', 'd_push'])
    expect(selectMethods(table, 'node', 'read')).toEqual(['b_read', 'c_answer'])
  })

  test('args: several values', () => {
    expect(selectMethods(table, 'wallet', 'sign', 'answer')).toEqual(['a_sign', 'c_answer'])
    expect(selectMethods(table, 'wallet')).toEqual([])
  })
})
