import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import { checksumAddress, isAddress } from './address.js'
import { InvalidTransactionError } from './errors.js'
import { normalizePersonalSign, normalizeTransaction } from './transaction.js'

describe('normalizeTransaction', () => {
  const ok = vectors.parseTransactionData_examples.filter((v) => 'output' in v)
  test.each(ok)('vector: $input', ({ input, output }) => {
    const got = normalizeTransaction(input as never)
    expect(got).toEqual(output)
    // Key order is part of the wire format: wallets see the same JSON text as from a v1 dapp.
    expect(JSON.stringify(got)).toBe(JSON.stringify(output))
  })

  test('error: vector with an invalid from', () => {
    const vector = vectors.parseTransactionData_examples.find((v) => 'throws' in v)!
    expect(() => normalizeTransaction(vector.input as never)).toThrowError(
      new InvalidTransactionError("Transaction object must include a valid 'from' value."),
    )
  })

  test('behavior: the from format is checked, its EIP-55 checksum is left to the signing wallet', () => {
    expect(() => normalizeTransaction({ from: '0x9b2055d370f73ec7d8a03e965129118dc8f5bf8' })).toThrowError(
      "Transaction object must include a valid 'from' value.",
    )
    expect(normalizeTransaction({ from: '0x9B2055d370f73ec7d8a03e965129118dc8f5bf83' })).toMatchObject({
      from: '0x9B2055d370f73ec7d8a03e965129118dc8f5bf83',
    })
  })

  test('args: bigint quantities and gasLimit', () => {
    const from = '0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'
    expect(normalizeTransaction({ from, value: 10n ** 16n, gasLimit: '0x5208' })).toEqual({
      from,
      gas: '0x5208',
      value: '0x2386f26fc10000',
      data: '',
    })
  })

  test('error: a quantity that is not a number names the field', () => {
    const from = '0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'
    expect(() => normalizeTransaction({ from, value: 'lots' })).toThrowError(
      "Transaction field 'value' is not a number",
    )
    expect(() => normalizeTransaction({ from, value: -1 })).toThrowError(
      "Transaction field 'value' is negative",
    )
  })
})

describe('normalizePersonalSign', () => {
  test.each(vectors.parsePersonalSign_examples)('vector: $input', ({ input, output }) => {
    expect(normalizePersonalSign(input)).toEqual(output)
  })

  test('behavior: UTF-8 beyond ASCII', () => {
    expect(normalizePersonalSign(['héllo ✓', '0xabc'])).toEqual(['0x68c3a96c6c6f20e29c93', '0xabc'])
  })
})

describe('isAddress / checksumAddress', () => {
  test('default: EIP-55 examples', () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    ]) {
      expect(checksumAddress(address.toLowerCase())).toBe(address)
      expect(isAddress(address)).toBe(true)
    }
  })

  test('behavior: all-lower and all-upper are accepted without a checksum; junk is not', () => {
    expect(isAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true)
    expect(isAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true)
    expect(isAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae')).toBe(false)
    expect(isAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(false)
    expect(isAddress(42)).toBe(false)
  })
})
