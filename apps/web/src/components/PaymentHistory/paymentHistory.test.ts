import { describe, expect, test } from 'vitest'
import type { Payment } from '../../serverApi.js'
import { describeRecord, formatRecordValue, hasOpenPayments, mergePayment } from './paymentHistory.js'

const payment = (hash: string, status: Payment['status'], extra: Partial<Payment> = {}): Payment => ({
  txHash: `0x${hash.repeat(64).slice(0, 64)}`,
  chainId: 31337,
  from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  value: '10000000000000000',
  status,
  blockNumber: null,
  confirmations: 0,
  final: false,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  confirmedAt: null,
  ...extra,
})

describe('hasOpenPayments', () => {
  test("default: open until final or dropped, so the confirmations shown are the server's until final", () => {
    expect(hasOpenPayments([payment('a', 'pending')])).toBe(true)
    expect(hasOpenPayments([payment('a', 'confirmed', { final: true }), payment('b', 'included')])).toBe(true)
    expect(hasOpenPayments([payment('a', 'confirmed')])).toBe(true)
    expect(hasOpenPayments([payment('a', 'reorged')])).toBe(true)
    expect(
      hasOpenPayments([payment('a', 'confirmed', { final: true }), payment('b', 'failed', { final: true })]),
    ).toBe(false)
    expect(hasOpenPayments([payment('a', 'dropped')])).toBe(false)
  })

  test('behavior: no history yet, or an empty one', () => {
    expect(hasOpenPayments(undefined)).toBe(false)
    expect(hasOpenPayments([])).toBe(false)
  })
})

describe('describeRecord', () => {
  test('default: each status in plain words', () => {
    expect(describeRecord(payment('a', 'pending'))).toBe('Pending: waiting to be included in a block')
    expect(describeRecord(payment('a', 'included', { blockNumber: 7, confirmations: 1 }))).toBe(
      'Included · block 7 · 1 confirmation',
    )
    expect(describeRecord(payment('a', 'confirmed', { blockNumber: 7, confirmations: 3 }))).toBe(
      'Confirmed · block 7 · 3 confirmations',
    )
    expect(describeRecord(payment('a', 'failed', { blockNumber: 9 }))).toBe(
      'Failed · block 9: the payment was reverted',
    )
    expect(describeRecord(payment('a', 'reorged'))).toBe(
      'Reorganised away: its block left the chain; waiting to be included again',
    )
    expect(describeRecord(payment('a', 'dropped'))).toBe('Dropped: not included in a block in time')
  })
})

describe('formatRecordValue', () => {
  test('default: wei string as ETH', () => {
    expect(formatRecordValue('10000000000000000')).toBe('0.01 ETH')
    expect(formatRecordValue('1')).toBe('0 ETH')
  })

  test('error: not a wei amount', () => {
    expect(formatRecordValue('-1')).toBe('—')
    expect(formatRecordValue('0x10')).toBe('—')
  })
})

describe('mergePayment', () => {
  test('default: a new payment goes first', () => {
    const merged = mergePayment([payment('a', 'confirmed')], payment('b', 'pending'))
    expect(merged.map((p) => p.status)).toEqual(['pending', 'confirmed'])
  })

  test('behavior: the same hash (any case) is replaced, not repeated', () => {
    const old = payment('a', 'pending')
    const upper = { ...payment('a', 'included'), txHash: old.txHash.toUpperCase() as `0x${string}` }
    expect(mergePayment([old], upper)).toEqual([upper])
    expect(mergePayment(undefined, old)).toEqual([old])
  })
})
