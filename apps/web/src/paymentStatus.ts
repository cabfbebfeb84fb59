import { describeRecord } from './components/PaymentHistory/paymentHistory.js'
import { plural, t } from './i18n/i18n.js'
import type { Payment } from './serverApi.js'

/** Where a payment is: asked of the wallet, broadcast, in a block (counting confirmations), or failed. */
export type PaymentStatus =
  | { step: 'idle' }
  | { step: 'signing' }
  | { step: 'pending'; hash: `0x${string}` }
  | { step: 'included'; hash: `0x${string}`; blockNumber: bigint; reverted: boolean }
  | { step: 'failed'; message: string }

/**
 * How many confirmations a transaction has: its own block counts as the first one.
 *
 * @example
 * getConfirmations(100n, 102n) // 3
 */
export function getConfirmations(includedIn: bigint, latest: bigint | undefined): number {
  if (latest === undefined || latest < includedIn) return 1
  return Number(latest - includedIn) + 1
}

/**
 * The one-line status shown under the payment form.
 *
 * @example
 * describePayment({ step: 'included', hash, blockNumber: 7n, reverted: false }, 9n) // 'In block 7 · 3 confirmations'
 */
export function describePayment(status: PaymentStatus, latest: bigint | undefined): string {
  switch (status.step) {
    case 'idle':
      return ''
    case 'signing':
      return t('payment_signing')
    case 'pending':
      return t('payment_pending')
    case 'included': {
      // Block numbers are names, written without grouping in every language.
      const block = status.blockNumber
      if (status.reverted) return t('payment_reverted', { block })
      const count = getConfirmations(status.blockNumber, latest)
      return t('payment_included', { block, confirmations: plural('confirmations', count) })
    }
    case 'failed':
      return status.message
  }
}

/**
 * The payment card's line: the server's record of this payment once there is one (the history shows the same, so
 * the page never says two counts), else what the page itself saw.
 *
 * @example
 * describeSentPayment(status, block.head, history.payments) // 'Confirmed · block 7 · 3 confirmations'
 */
export function describeSentPayment(
  status: PaymentStatus,
  latest: bigint | undefined,
  records: readonly Payment[] | undefined,
): { text: string; record: Payment | undefined } {
  const hash = 'hash' in status ? status.hash.toLowerCase() : undefined
  const record = hash ? records?.find((p) => p.txHash.toLowerCase() === hash) : undefined
  return { text: record ? describeRecord(record) : describePayment(status, latest), record }
}
