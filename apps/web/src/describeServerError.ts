import { UserRejectedRequestError } from '@pairlink/provider'
import { describeError, hasError } from './describeError.js'
import { plural, t } from './i18n/i18n.js'
import { ServerError } from './serverApi.js'

/** What the person was doing: signing in (nonce, wallet, verify), signing out, or keeping payment records. */
export type ServerErrorContext = 'signIn' | 'signOut' | 'payments'

/**
 * The plain-language message for a failed sign-in, sign-out or payment record. HTTP statuses and the call decide;
 * the server's own `{ error }` text is only looked at to tell apart the sign-in refusals (expired nonce, wrong
 * signature, another site), and never shown. Wallet errors read as {@link describeError} says.
 *
 * @example
 * describeServerError(new ServerError('verify', 401, 'Nonce is unknown, used or expired: ask for a new one'), 'signIn')
 * // 'The sign-in expired before it reached the server. Press Sign in with wallet to try again.'
 */
export function describeServerError(error: unknown, context: ServerErrorContext): string {
  if (!(error instanceof ServerError)) {
    // EIP-1193 4001, however deep viem wrapped it.
    if (context === 'signIn' && hasError(error, (e) => e.code === UserRejectedRequestError.code)) {
      return t('server_signature_refused')
    }
    return describeError(error)
  }
  const { status, action, serverMessage } = error
  if (status === 0) {
    return t(context === 'payments' ? 'server_unreachable_payments' : 'server_unreachable')
  }
  if (status === 429) {
    const wait = error.retryAfter ? plural('seconds', error.retryAfter) : t('a_minute')
    return t('server_too_many', { wait })
  }
  if (status === 403) return t('server_forbidden')
  if (status >= 500) return t('server_failed')
  if (action === 'verify') {
    if (/nonce|expired|not valid yet|future/i.test(serverMessage)) {
      return t('server_nonce_expired')
    }
    if (/signature/i.test(serverMessage)) {
      return t('server_bad_signature')
    }
    if (/chain/i.test(serverMessage)) {
      return t('server_wrong_chain')
    }
    if (status === 401) return t('server_wrong_site')
    return t('server_unreadable')
  }
  if (status === 401) return t('sign_in_ended')
  if (action === 'recordPayment') return t('server_record_failed')
  return t('server_refused')
}
