import { formatBalance } from '../../format.js'
import { plural, t } from '../../i18n/i18n.js'
import type { Payment } from '../../serverApi.js'

/**
 * Whether any payment is still being followed by the server (not final, not dropped): while one is, the history is
 * read again on each new block, so its confirmations are the server's and count on until final.
 *
 * @example
 * hasOpenPayments([{ ...payment, status: 'confirmed', final: false }]) // true
 */
export function hasOpenPayments(payments: readonly Pick<Payment, 'status' | 'final'>[] | undefined): boolean {
  return payments?.some((p) => !p.final && p.status !== 'dropped') ?? false
}

/**
 * The history's status line for one payment.
 *
 * @example
 * describeRecord({ status: 'confirmed', blockNumber: 7, confirmations: 3 }) // 'Confirmed · block 7 · 3 confirmations'
 */
export function describeRecord(payment: Pick<Payment, 'status' | 'blockNumber' | 'confirmations'>): string {
  const block = payment.blockNumber === null ? '' : ` · ${t('in_block', { block: payment.blockNumber })}`
  const confirmations = ` · ${plural('confirmations', payment.confirmations)}`
  switch (payment.status) {
    case 'pending':
      return t('status_pending')
    case 'included':
      return `${t('status_included')}${block}${confirmations}`
    case 'confirmed':
      return `${t('status_confirmed')}${block}${confirmations}`
    case 'failed':
      return t('status_failed', { block })
    case 'reorged':
      return t('status_reorged')
    case 'dropped':
      return t('status_dropped')
  }
}

/**
 * A payment's amount (wei as a decimal string) in ETH; `—` when the server sent something else.
 *
 * @example
 * formatRecordValue('10000000000000000') // '0.01 ETH'
 */
export function formatRecordValue(value: string): string {
  return /^\d+$/.test(value) ? formatBalance(BigInt(value), 6) : '—'
}

/**
 * The list with `payment` in it: replaces the one with the same hash, or puts it first (the list is newest first).
 *
 * @example
 * mergePayment(history, recorded)
 */
export function mergePayment(payments: readonly Payment[] | undefined, payment: Payment): Payment[] {
  const hash = payment.txHash.toLowerCase()
  const rest = (payments ?? []).filter((p) => p.txHash.toLowerCase() !== hash)
  return [payment, ...rest]
}
