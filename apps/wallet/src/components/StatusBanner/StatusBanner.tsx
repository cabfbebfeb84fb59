import type { Status } from '../../hooks/sessionState.js'
import { t } from '../../i18n/i18n.js'

/** The latest outcome in one line; errors are announced to screen readers at once. */
export function StatusBanner({ status, onDismiss }: { status: Status | undefined; onDismiss?: () => void }) {
  if (!status) return null
  return (
    <div
      className={`status status-${status.tone}`}
      data-testid="status"
      data-tone={status.tone}
      role={status.tone === 'error' ? 'alert' : 'status'}
    >
      <span>{status.text}</span>
      {onDismiss && (
        <button type="button" className="link" aria-label={t('dismiss')} onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  )
}
