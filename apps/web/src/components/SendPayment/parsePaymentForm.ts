import { getAddress, isAddress, parseEther } from 'viem'
import { t } from '../../i18n/i18n.js'

/** The payment form, parsed: what to send, or what the person has to fix first. */
export type PaymentForm =
  | { ok: true; to: `0x${string}`; value: bigint }
  | { ok: false; field: 'recipient' | 'amount'; message: string }

/**
 * Checks the recipient (any case; a mixed-case address must carry a valid EIP-55 checksum) and the amount in ETH.
 *
 * @example
 * parsePaymentForm('0x7099…79C8', '0.01') // { ok: true, to: '0x7099…79C8', value: 10000000000000000n }
 */
export function parsePaymentForm(recipient: string, amount: string): PaymentForm {
  const to = recipient.trim()
  if (!isAddress(to)) {
    return {
      ok: false,
      field: 'recipient',
      message: t('invalid_recipient'),
    }
  }
  const text = amount.trim()
  if (!/^\d*\.?\d+$|^\d+\.$/.test(text)) {
    return { ok: false, field: 'amount', message: t('invalid_amount') }
  }
  let value: bigint
  try {
    value = parseEther(text)
  } catch {
    return { ok: false, field: 'amount', message: t('invalid_amount') }
  }
  if (value <= 0n) return { ok: false, field: 'amount', message: t('amount_zero') }
  return { ok: true, to: getAddress(to), value }
}
