import { PENDING_REQUEST_MAX_AGE_MS } from '../core/pendingRequests.js'
import { t } from '../i18n/i18n.js'

/** The status line after a restore that brought back unanswered requests, or found some too old to answer. */
export function restoredText(dapp: string, waiting: number, expired: number): string {
  const parts = [t('restored', { dapp })]
  if (waiting > 0)
    parts.push(t(waiting === 1 ? 'restored_waiting_one' : 'restored_waiting_other', { count: waiting }))
  if (expired > 0) {
    const values = { count: expired, minutes: PENDING_REQUEST_MAX_AGE_MS / 60_000, dapp }
    parts.push(t(expired === 1 ? 'restored_expired_one' : 'restored_expired_other', values))
  }
  return parts.join(' ')
}
