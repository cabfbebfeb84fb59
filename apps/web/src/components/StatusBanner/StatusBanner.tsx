import type { Rewind } from '../../hooks/useBlock.js'
import type { Notice } from '../../hooks/usePairlink.js'
import { t } from '../../i18n/i18n.js'

/** Props of {@link StatusBanner}. */
export type StatusBannerProps = {
  notice: Notice | undefined
  onDismiss: () => void
  /** The bridge socket keeps failing to connect; the client is retrying. */
  bridgeUnreachable: boolean
  /**
   * What the person's generation calls the server between the app and the wallet: v1's bridge, v2's relay.
   * @default 'bridge'
   */
  server?: 'bridge' | 'relay' | undefined
  /** Why block polling fails, when it does: a whole sentence, shown as is. */
  rpcError: string | undefined
  /** The node's head went back below the newest block seen (a restarted node). */
  rewind?: Rewind | undefined
}

/**
 * The page's messages about the session and the connections: the last outcome (connected, rejected, closed,
 * disconnected) and the standing warnings for an unreachable bridge (v1) or relay (v2) or RPC node. One banner per
 * outage: a notice that only says the relay could not be reached is left out while the standing warning shows.
 */
export function StatusBanner({
  notice,
  onDismiss,
  bridgeUnreachable,
  server = 'bridge',
  rpcError,
  rewind,
}: StatusBannerProps) {
  const shown = notice?.outage && bridgeUnreachable ? undefined : notice
  return (
    <div className="banners">
      {bridgeUnreachable ? (
        <p className="banner error" role="alert" data-testid="bridge-warning">
          {t(server === 'relay' ? 'relay_unreachable' : 'bridge_unreachable')}
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
      {shown ? (
        <div className={`banner ${shown.tone}`} role={shown.tone === 'error' ? 'alert' : 'status'}>
          <span data-testid="notice" data-tone={shown.tone}>
            {shown.text}
          </span>
          <button type="button" className="dismiss" aria-label={t('dismiss')} onClick={onDismiss}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  )
}
