import { describe, expect, test } from 'vitest'
import { parsePaymentForm } from './parsePaymentForm.js'

const ACCOUNT_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('parsePaymentForm', () => {
  test('default: a checksummed recipient and an amount in ETH', () => {
    expect(parsePaymentForm(ACCOUNT_1, '0.01')).toEqual({ ok: true, to: ACCOUNT_1, value: 10n ** 16n })
  })

  test('args: lower-case recipient is checksummed; spaces are trimmed', () => {
    expect(parsePaymentForm(` ${ACCOUNT_1.toLowerCase()} `, ' 1 ')).toEqual({
      ok: true,
      to: ACCOUNT_1,
      value: 10n ** 18n,
    })
    expect(parsePaymentForm(ACCOUNT_1, '.5')).toMatchObject({ ok: true, value: 5n * 10n ** 17n })
  })

  test('error: a bad recipient', () => {
    expect(parsePaymentForm('0x1234', '1')).toMatchObject({ ok: false, field: 'recipient' })
    // One changed letter breaks the EIP-55 checksum.
    expect(parsePaymentForm(ACCOUNT_1.replace('C51', 'c51'), '1')).toMatchObject({
      ok: false,
      field: 'recipient',
    })
  })

  test('error: a bad amount', () => {
    for (const amount of ['', 'abc', '-1', '1e18', '0', '0.0', '1.2.3']) {
      expect(parsePaymentForm(ACCOUNT_1, amount)).toMatchObject({ ok: false, field: 'amount' })
    }
  })
})
