import type { ClientMeta } from '@pairlink/protocol'
import { useState } from 'react'
import type { AccountId } from '../../accountStore.js'
import { getChainOptions } from '../../core/chains.js'
import type { ProposalSummary } from '../../core/namespaces.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
import { fill } from '../../i18n/fill.js'
import { t } from '../../i18n/i18n.js'
import { formatChain } from '../../i18n/words.js'
import { AccountOptions } from '../AccountOptions/AccountOptions.js'
import { PeerInfo } from '../PeerInfo/PeerInfo.js'
import { ProposalView } from '../ProposalView/ProposalView.js'
import { ProtocolVersion } from '../ProtocolVersion/ProtocolVersion.js'

/** Props of {@link SessionRequest}. */
export type SessionRequestProps = {
  peer: ClientMeta | null
  /** The chain the dapp asked for, if any. */
  requestedChainId: number | null
  devChainId: number
  /** The session's WalletConnect version. @default null (not shown) */
  version?: 1 | 2 | null | undefined
  /** v2: what the proposal asks for, listed before Approve. */
  proposal?: ProposalSummary | undefined
  options: AccountOption[]
  selected: AccountOption
  onApprove(choice: { accountId: AccountId; chainId: number }): void
  onReject(): void
}

/** A dapp asks to connect: who it is, which account and chain to share, Approve or Reject. */
export function SessionRequest(props: SessionRequestProps) {
  const { peer, requestedChainId, devChainId, options, selected } = props
  const [accountId, setAccountId] = useState<AccountId>(selected.id)
  const [chainId, setChainId] = useState<number>(requestedChainId ?? devChainId)
  // v2: the proposal requires what this wallet cannot give; approving it is not possible.
  const refused = props.proposal?.refused
  return (
    <section className="card screen" data-testid="session-request" aria-labelledby="session-request-heading">
      <h2 id="session-request-heading">{t('session_request')}</h2>
      <PeerInfo peer={peer} />
      <p>
        {fill(t('session_asks'), { dapp: <strong>{peer?.name || t('this_dapp')}</strong> })}{' '}
        <ProtocolVersion version={props.version ?? null} />
      </p>
      {props.proposal && <ProposalView proposal={props.proposal} devChainId={devChainId} />}
      {refused && (
        <p className="status status-error" role="alert" data-testid="session-refusal">
          {t('cannot_approve', { reason: refused })}
        </p>
      )}
      <label className="field">
        <span>{t('account_to_share')}</span>
        <select
          data-testid="session-account-select"
          value={accountId}
          onChange={(e) => setAccountId(e.target.value as AccountId)}
        >
          <AccountOptions options={options} />
        </select>
      </label>
      <label className="field">
        <span>{t('chain')}</span>
        <select
          data-testid="session-chain-select"
          value={chainId}
          onChange={(e) => setChainId(Number(e.target.value))}
        >
          {getChainOptions(devChainId, requestedChainId).map((id) => (
            <option key={id} value={id}>
              {formatChain(id)}
            </option>
          ))}
        </select>
      </label>
      <div className="actions">
        <button type="button" className="danger" data-testid="reject-session" onClick={props.onReject}>
          {t('reject')}
        </button>
        <button
          type="button"
          className="primary"
          data-testid="approve-session"
          disabled={refused !== undefined}
          onClick={() => props.onApprove({ accountId, chainId })}
        >
          {t('approve')}
        </button>
      </div>
    </section>
  )
}
