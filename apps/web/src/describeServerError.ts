import { UserRejectedRequestError } from '@pairlink/provider'
import { describeError, hasError } from './describeError.js'
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
      return 'You refused the signature in the wallet, so you are not signed in.'
    }
    return describeError(error)
  }
  const { status, action, serverMessage } = error
  if (status === 0) {
    return context === 'payments'
      ? 'The server is unreachable, so the payment history cannot be updated. Retrying…'
      : 'The server is unreachable. Check your connection and try again.'
  }
  if (status === 429) {
    const wait = error.retryAfter
      ? `${error.retryAfter} second${error.retryAfter === 1 ? '' : 's'}`
      : 'a minute'
    return `Too many sign-in attempts. Wait ${wait} and try again.`
  }
  if (status === 403) return 'The server refused a request from this page. Reload the page and try again.'
  if (status >= 500) return 'The server ran into a problem. Try again in a moment.'
  if (action === 'verify') {
    if (/nonce|expired|not valid yet|future/i.test(serverMessage)) {
      return 'The sign-in expired before it reached the server. Press Sign in with wallet to try again.'
    }
    if (/signature/i.test(serverMessage)) {
      return 'The signature does not belong to this account, so you are not signed in.'
    }
    if (/chain/i.test(serverMessage)) {
      return 'The sign-in was for another chain than this site runs. Switch the wallet back and try again.'
    }
    if (status === 401)
      return 'The sign-in was for another site, so the server refused it. Reload and try again.'
    return 'The server could not read the signed message. Try signing in again.'
  }
  if (status === 401) return 'Your sign-in has ended. Sign in with your wallet again.'
  if (action === 'recordPayment') return 'The server could not record this payment.'
  return 'The server refused the request. Reload the page and try again.'
}
