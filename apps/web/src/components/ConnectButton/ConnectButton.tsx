import { t } from '../../i18n/i18n.js'

/** Props of {@link ConnectButton}. */
export type ConnectButtonProps = {
  status: 'disconnected' | 'connecting' | 'connected'
  onConnect: () => void
}

/** Opens the QR modal to pair a wallet; shows that it waits while a pairing is under way. */
export function ConnectButton({ status, onConnect }: ConnectButtonProps) {
  const connecting = status === 'connecting'
  return (
    <button
      type="button"
      className="primary"
      data-testid="connect-button"
      onClick={onConnect}
      disabled={connecting}
      aria-busy={connecting}
    >
      {connecting ? t('waiting_for_wallet') : t('connect_wallet')}
    </button>
  )
}
