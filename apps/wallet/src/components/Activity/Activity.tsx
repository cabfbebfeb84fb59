import type { RequestOutcome } from '../../core/createWallet.js'
import type { ActivityItem } from '../../hooks/sessionState.js'
import { getLanguage, type MessageKey, t } from '../../i18n/i18n.js'
import { requestTitle } from '../CallRequest/requestTitle.js'

const STATUS_LABELS: Record<RequestOutcome['status'], MessageKey> = {
  signed: 'status_signed',
  sent: 'status_sent',
  approved: 'status_approved',
  rejected: 'status_rejected',
  failed: 'status_failed',
  expired: 'status_expired',
}

/** The last answers of this session, newest first: what was asked, by which dapp, when, and how it ended. */
export function Activity({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) return null
  return (
    <section className="card" aria-labelledby="activity-heading">
      <h2 id="activity-heading">{t('activity')}</h2>
      <ul className="activity" data-testid="activity-list">
        {items.map((item) => (
          <li key={item.id} data-testid="activity-item" data-status={item.status}>
            <span className="activity-head">
              <strong data-testid="activity-title" title={item.method}>
                {requestTitle(item)}
              </strong>
              <span className={`badge badge-${item.status}`}>{t(STATUS_LABELS[item.status])}</span>
            </span>
            <span className="muted small" data-testid="activity-meta">
              {item.dapp} ·{' '}
              <time dateTime={new Date(item.at).toISOString()}>
                {new Date(item.at).toLocaleTimeString(getLanguage(), { hour: '2-digit', minute: '2-digit' })}
              </time>
            </span>
            {item.status === 'sent' && <span className="hex small">{String(item.result)}</span>}
            {item.error && <span className="small error-text">{item.error.message}</span>}
          </li>
        ))}
      </ul>
    </section>
  )
}
