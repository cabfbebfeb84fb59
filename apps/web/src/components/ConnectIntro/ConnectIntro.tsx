import type { AppConfig } from '../../hooks/useConfig.js'
import { t } from '../../i18n/i18n.js'
import type { Protocol } from '../../protocolChoice.js'

/** Props of {@link ConnectIntro}. */
export type ConnectIntroProps = { config: AppConfig; protocol: Protocol }

/**
 * What can connect, said truthfully: a v2 link names no relay and phone wallets listen on WalletConnect's network, so
 * only a server with a WalletConnect project id (`relayNetwork: 'walletconnect'`) reaches them. On its own relay the
 * server reaches Pairlink Wallet and wallets set up for that relay, and says what the operator must do for the rest;
 * v1 goes through this server's bridge. Browser wallets are offered in every case. Over v2 it also says that approving
 * in the wallet signs in too (one-click auth), and what happens with a wallet that cannot.
 */
export function ConnectIntro({ config, protocol }: ConnectIntroProps) {
  const network = protocol === 2 && config.relayUrl ? config.relayNetwork : 'bridge'
  const intro = (
    <p className="muted" data-testid="connect-intro" data-network={network}>
      {t(
        network === 'walletconnect'
          ? 'intro_walletconnect'
          : network === 'pairlink'
            ? 'intro_pairlink'
            : 'intro_bridge',
      )}
    </p>
  )
  if (network === 'bridge') return intro
  return (
    <>
      {intro}
      <p className="muted" data-testid="one-click-intro">
        {t('intro_one_click')}
      </p>
    </>
  )
}
