import type { Rewind } from '../../hooks/useBlock.js'
import type { Notice } from '../../hooks/usePairlink.js'
import { t } from '../../i18n/i18n.js'

/** Props of {@link StatusBanner}. */
export type StatusBannerProps = {
  notice: Notice | undefined
  onDismiss: () => void
  /** The bridge socket keeps failing to connect; the client is retrying. */
  bridgeUnreachable: boolean
  /** Why block polling fails, when it does: a whole sentence, shown as is. */
  rpcError: string | undefined
  /** The node's head went back below the newest block seen (a restarted node). */
  rewind?: Rewind | undefined
}

/**
 * The page's messages about the session and the connections: the last outcome (connected, rejected, closed,
 * disconnected) and the standing warnings for an unreachable bridge or RPC node.
 */
export function StatusBanner({ notice, onDismiss, bridgeUnreachable, rpcError, rewind }: StatusBannerProps) {
  return (
    <div className="banners">
      {bridgeUnreachable ? (
        <p className="banner error" role="alert" data-testid="bridge-warning">
          {t('bridge_unreachable')}
        </p>
      ) : null}
      {rpcError ? (
        <p className="banner error" role="alert" data-testid="rpc-warning">
          {rpcError}
        </p>
      ) : null}
      {rewind ? (
        <p className="banner error" role="alert" data-testid="rpc-rewind">
          {t('rpc_rewind', { from: rewind.from, to: rewind.to })}
        </p>
      ) : null}
      {notice ? (
        <div className={`banner ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          <span data-testid="notice" data-tone={notice.tone}>
            {notice.text}
          </span>
          <button type="button" className="dismiss" aria-label={t('dismiss')} onClick={onDismiss}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  )
}
