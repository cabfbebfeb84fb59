import type { TransportState } from '@pairlink/client'
import { formatBalance, formatChain } from '../../format.js'
import type { SessionView } from '../../hooks/usePairlink.js'
import { fill } from '../../i18n/fill.js'
import { type MessageKey, t } from '../../i18n/i18n.js'
import { CopyButton } from '../CopyButton/CopyButton.js'
import { WalletIcon } from './WalletIcon.js'

/** Props of {@link AccountPanel}. */
export type AccountPanelProps = {
  session: SessionView
  /** The chain the app reads (balance, blocks): when the session is on another, neither is shown. */
  appChainId: number
  balance: bigint | undefined
  blockNumber: bigint | undefined
  transport: TransportState
  /** The session's WalletConnect generation. @default 1 */
  protocol?: 1 | 2 | undefined
  /** The session is with a wallet installed in this browser: no protocol, no socket to show. */
  browserWallet?: boolean | undefined
  onDisconnect: () => void
}

const BRIDGE_STATES = {
  open: 'socket_open',
  connecting: 'socket_connecting',
  closed: 'socket_closed',
} as const satisfies Record<TransportState, MessageKey>

/**
 * Why the panel shows no balance or block. v1's wallet holds one chain, which only it can move back. A v2 session's
 * chain may have been moved by the app (the wallet's own page then stays where it was) or by the wallet, and the app
 * moves it back itself, among the chains the wallet approved.
 */
function describeOffChain(protocol: 1 | 2, chainId: number, appChainId: number): string {
  const values = { chain: formatChain(chainId), app: formatChain(appChainId) }
  return t(protocol === 2 ? 'off_chain_v2' : 'off_chain_v1', values)
}

/**
 * The connected account: checksummed address with copy, the wallet's name and icon, the chain, the balance and
 * latest block (both live from block polling), the protocol and the state of its socket (v1's bridge, v2's relay) or
 * "Browser wallet" for a wallet installed in the browser, and Disconnect.
 */
export function AccountPanel(props: AccountPanelProps) {
  const { session, appChainId, transport, protocol = 1, browserWallet, onDisconnect } = props
  const walletName = session.peerMeta?.name || t('unnamed_wallet')
  // The app's node serves one chain: under another chain's name its balance and block would be false.
  const offChain = session.chainId !== appChainId
  const balance = offChain ? undefined : props.balance
  const blockNumber = offChain ? undefined : props.blockNumber
  return (
    <section className="card account" aria-labelledby="account-title" data-testid="account-panel">
      <div className="account-head">
        <WalletIcon name={walletName} src={session.peerMeta?.icons?.[0]} />
        <div>
          {/* The connected screen's one h1: what the page is about now, the wallet it talks to. */}
          <h1 id="account-title">
            {fill(t('connected_to'), { wallet: <span data-testid="wallet-name">{walletName}</span> })}
          </h1>
          <p className="muted">{session.peerMeta?.url ?? ''}</p>
          <p
            className="muted"
            data-testid="session-protocol"
            data-protocol={browserWallet ? 'browser' : protocol}
          >
            {browserWallet ? t('browser_wallet') : `WalletConnect v${protocol}`}
          </p>
        </div>
        <button type="button" className="danger small" data-testid="disconnect-button" onClick={onDisconnect}>
          {t('disconnect')}
        </button>
      </div>
      <div className="address-row">
        <code className="address" data-testid="account-address">
          {session.address}
        </code>
        <CopyButton text={session.address} label={t('copy_address')} testId="copy-address-button" />
      </div>
      <dl className="facts">
        <div>
          <dt>{t('balance')}</dt>
          <dd data-testid="account-balance" data-wei={balance?.toString()}>
            {offChain ? t('not_read_here') : balance === undefined ? t('loading') : formatBalance(balance)}
          </dd>
        </div>
        <div>
          <dt>{t('chain')}</dt>
          <dd data-testid="chain-name" data-chain-id={session.chainId}>
            {formatChain(session.chainId)}
          </dd>
        </div>
        <div>
          <dt>{t('latest_block')}</dt>
          <dd data-testid="block-number">
            {offChain ? t('not_read_here') : blockNumber === undefined ? t('waiting') : `#${blockNumber}`}
          </dd>
        </div>
        {browserWallet ? null : (
          <div>
            {/* v1 pairs through the bridge, v2 through the relay: the same socket state either way. */}
            <dt>{protocol === 2 ? t('relay') : t('bridge')}</dt>
            <dd data-testid="bridge-state" data-state={transport}>
              <span className={`dot ${transport}`} aria-hidden="true" />
              {t(BRIDGE_STATES[transport])}
            </dd>
          </div>
        )}
      </dl>
      {offChain ? (
        <p className="banner error" role="alert" data-testid="chain-mismatch">
          {describeOffChain(protocol, session.chainId, appChainId)}
        </p>
      ) : null}
    </section>
  )
}
