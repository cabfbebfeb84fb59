import { describe, expect, test } from 'vitest'
import { describePayment, getConfirmations } from './paymentStatus.js'

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
