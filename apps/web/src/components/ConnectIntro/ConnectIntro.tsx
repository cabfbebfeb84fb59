import type { AppConfig } from '../../hooks/useConfig.js'
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
      {network === 'walletconnect' ? (
        <>
          Scan the QR code with any WalletConnect wallet (MetaMask, Rainbow, Trust, Ledger Live and others),
          or on a phone pick your wallet from the list; a wallet installed in this browser is offered there
          too. The connection is end-to-end encrypted; WalletConnect's relay carries it without reading it.
        </>
      ) : network === 'pairlink' ? (
        <>
          This server pairs through its own relay: Pairlink Wallet and wallets set up for this relay connect
          by QR code, and a wallet installed in this browser is offered there too. Phone wallets such as
          MetaMask or Rainbow listen on WalletConnect's network: they can connect once the site's operator
          sets a WalletConnect project id (WALLETCONNECT_PROJECT_ID).
        </>
      ) : (
        <>
          Scan the QR code with a WalletConnect v1 wallet, or use a wallet installed in this browser, offered
          there too. The connection is end-to-end encrypted through this server's bridge.
        </>
      )}
    </p>
  )
  if (network === 'bridge') return intro
  return (
    <>
      {intro}
      <p className="muted" data-testid="one-click-intro">
        Approving the connection in your wallet also signs you in to this site: one approval, no second step.
        A wallet that cannot sign in while connecting just connects; you then sign in from the account page.
      </p>
    </>
  )
}
