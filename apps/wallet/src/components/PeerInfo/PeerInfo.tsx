import type { ClientMeta } from '@pairlink/protocol'
import { useState } from 'react'
import { t } from '../../i18n/i18n.js'

/** The dapp as it introduced itself: icon, name, URL. The icon is dropped if it fails to load. */
export function PeerInfo({ peer }: { peer: ClientMeta | null }) {
  const [iconFailed, setIconFailed] = useState(false)
  const icon = peer?.icons?.find((url) => /^https?:\/\//.test(url))
  const name = peer?.name || t('unknown_dapp')
  return (
    <div className="peer">
      {icon && !iconFailed ? (
        <img
          className="peer-icon"
          src={icon}
          alt=""
          data-testid="peer-icon"
          onError={() => setIconFailed(true)}
        />
      ) : (
        <div className="peer-icon peer-icon-fallback" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div className="peer-text">
        <strong data-testid="peer-name">{name}</strong>
        {peer?.url && (
          <span className="muted" data-testid="peer-url">
            {peer.url}
          </span>
        )}
        {peer?.description && (
          <span className="muted small" data-testid="peer-description">
            {peer.description}
          </span>
        )}
      </div>
    </div>
  )
}
