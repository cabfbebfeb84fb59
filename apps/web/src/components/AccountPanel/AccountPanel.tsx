import type { TransportState } from '@pairlink/client'
import { formatBalance, formatChain } from '../../format.js'
import type { SessionView } from '../../hooks/usePairlink.js'
import { CopyButton } from '../CopyButton/CopyButton.js'
import { WalletIcon } from './WalletIcon.js'

/** Props of {@link AccountPanel}. */
export type AccountPanelProps = {
  session: SessionView
  balance: bigint | undefined
  blockNumber: bigint | undefined
  transport: TransportState
  onDisconnect: () => void
}

const BRIDGE_STATES: Record<TransportState, string> = {
  open: 'Connected',
  connecting: 'Reconnecting…',
  closed: 'Offline',
}

/**
 * The connected account: checksummed address with copy, the wallet's name and icon, the chain, the balance and
 * latest block (both live from block polling), the bridge socket's state, and Disconnect.
 */
export function AccountPanel({ session, balance, blockNumber, transport, onDisconnect }: AccountPanelProps) {
  const walletName = session.peerMeta?.name || 'Unnamed wallet'
  return (
    <section className="card account" aria-labelledby="account-title" data-testid="account-panel">
      <div className="account-head">
        <WalletIcon name={walletName} src={session.peerMeta?.icons?.[0]} />
        <div>
          <h2 id="account-title" data-testid="wallet-name">
            {walletName}
          </h2>
          <p className="muted">{session.peerMeta?.url ?? ''}</p>
        </div>
        <button
          type="button"
          className="secondary small"
          data-testid="disconnect-button"
          onClick={onDisconnect}
        >
          Disconnect
        </button>
      </div>
      <div className="address-row">
        <code className="address" data-testid="account-address">
          {session.address}
        </code>
        <CopyButton text={session.address} label="Copy address" testId="copy-address-button" />
      </div>
      <dl className="facts">
        <div>
          <dt>Balance</dt>
          <dd data-testid="account-balance" data-wei={balance?.toString()}>
            {balance === undefined ? 'Loading…' : formatBalance(balance)}
          </dd>
        </div>
        <div>
          <dt>Chain</dt>
          <dd data-testid="chain-name" data-chain-id={session.chainId}>
            {formatChain(session.chainId)}
          </dd>
        </div>
        <div>
          <dt>Latest block</dt>
          <dd data-testid="block-number">{blockNumber === undefined ? 'Waiting…' : `#${blockNumber}`}</dd>
        </div>
        <div>
          <dt>Bridge</dt>
          <dd data-testid="bridge-state" data-state={transport}>
            <span className={`dot ${transport}`} aria-hidden="true" />
            {BRIDGE_STATES[transport]}
          </dd>
        </div>
      </dl>
    </section>
  )
}
