import type { RequestOutcome } from '../../core/createWallet.js'

/** The last answers of this session, newest first. */
export function Activity({ items }: { items: RequestOutcome[] }) {
  if (items.length === 0) return null
  return (
    <section className="card" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      <ul className="activity" data-testid="activity-list">
        {items.map((item) => (
          <li key={item.id} data-testid="activity-item" data-status={item.status}>
            <code>{item.method}</code> <span className={`badge badge-${item.status}`}>{item.status}</span>
            {item.status === 'sent' && <span className="hex small">{String(item.result)}</span>}
            {item.error && <span className="small error-text">{item.error.message}</span>}
          </li>
        ))}
      </ul>
    </section>
  )
}
