import { describe, expect, test } from 'vitest'
import { describePayment, describeSentPayment, getConfirmations } from './paymentStatus.js'
import type { Payment } from './serverApi.js'

const hash = `0x${'ab'.repeat(32)}` as const

describe('getConfirmations', () => {
  test('default: the including block is the first confirmation', () => {
    expect(getConfirmations(10n, 10n)).toBe(1)
    expect(getConfirmations(10n, 12n)).toBe(3)
  })

  test('behavior: a latest block not yet caught up still counts one', () => {
    expect(getConfirmations(10n, 9n)).toBe(1)
    expect(getConfirmations(10n, undefined)).toBe(1)
  })
})

describe('describePayment', () => {
  test('behavior: each step in order', () => {
    expect(describePayment({ step: 'idle' }, 1n)).toBe('')
    expect(describePayment({ step: 'signing' }, 1n)).toMatch(/^Waiting for the wallet/)
    expect(describePayment({ step: 'pending', hash }, 1n)).toMatch(/^Pending/)
    expect(describePayment({ step: 'included', hash, blockNumber: 7n, reverted: false }, 7n)).toBe(
      'In block 7 · 1 confirmation',
    )
    expect(describePayment({ step: 'included', hash, blockNumber: 7n, reverted: false }, 9n)).toBe(
      'In block 7 · 3 confirmations',
    )
  })

  test('error: reverted and failed', () => {
    expect(describePayment({ step: 'included', hash, blockNumber: 7n, reverted: true }, 9n)).toMatch(
      /reverted/,
    )
    expect(describePayment({ step: 'failed', message: 'The wallet rejected the request.' }, 9n)).toBe(
      'The wallet rejected the request.',
    )
  })
})

describe('describeSentPayment', () => {
  const record = {
    txHash: hash.toUpperCase().replace('0X', '0x'),
    status: 'confirmed',
    blockNumber: 7,
    confirmations: 9,
  } as unknown as Payment
  const included = { step: 'included', hash, blockNumber: 7n, reverted: false } as const

  test('behavior: once the server records the payment, its count is the one shown', () => {
    // The page alone would say 3 here; the server, which follows the payment, says 9.
    expect(describeSentPayment(included, 9n, [record])).toEqual({
      text: 'Confirmed · block 7 · 9 confirmations',
      record,
    })
  })

  test('behavior: before the record (or signed out), what the page saw', () => {
    expect(describeSentPayment(included, 9n, undefined).text).toBe('In block 7 · 3 confirmations')
    const other = { ...record, txHash: `0x${'cd'.repeat(32)}` } as Payment
    expect(describeSentPayment(included, 9n, [other]).text).toBe('In block 7 · 3 confirmations')
    expect(describeSentPayment({ step: 'signing' }, 9n, [record]).record).toBeUndefined()
  })
})
