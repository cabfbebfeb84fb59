import { describe, expect, test } from 'vitest'
import { SIGNING_METHODS } from './constants.js'
import { METHODS, type MethodTable, selectMethods } from './methods.js'

describe('METHODS', () => {
  test('default: v1 signing methods come first, in their order', () => {
    expect(Object.keys(METHODS).slice(0, SIGNING_METHODS.length)).toEqual(SIGNING_METHODS)
  })

  test('behavior: no method the person approves is one the node is asked for', () => {
    const table: MethodTable = METHODS
    const both = Object.keys(table).filter((method) => table[method]?.approval && table[method]?.node)
    expect(both).toEqual([])
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
