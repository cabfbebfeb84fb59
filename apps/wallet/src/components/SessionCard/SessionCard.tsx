import type { ClientMeta } from '@pairlink/protocol'
import type { AccountId } from '../../accountStore.js'
import { getChainOptions } from '../../core/chains.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
import { t } from '../../i18n/i18n.js'
import { formatChain } from '../../i18n/words.js'
import { AccountOptions } from '../AccountOptions/AccountOptions.js'
import { Address } from '../Address/Address.js'
import { PeerInfo } from '../PeerInfo/PeerInfo.js'
import { ProtocolVersion } from '../ProtocolVersion/ProtocolVersion.js'

/** Props of {@link SessionCard}. */
export type SessionCardProps = {
  peer: ClientMeta | null
  address: string | undefined
  chainId: number
  devChainId: number
  /** The session's WalletConnect version. @default null (not shown) */
  version?: 1 | 2 | null | undefined
  options: AccountOption[]
  bridgeRetrying: boolean
  onSwitchAccount(id: AccountId): void
  onSwitchChain(chainId: number): void
  onDisconnect(): void
}

/** The connected dapp, with the session's account and chain (each switchable) and Disconnect. */
export function SessionCard(props: SessionCardProps) {
  const { peer, address, chainId, devChainId, options, bridgeRetrying } = props
  const current = options.find((option) => option.account.address.toLowerCase() === address?.toLowerCase())
  return (
    <section className="card" data-testid="session-card" aria-labelledby="session-heading">
      <h2 id="session-heading">{t('connected_to', { dapp: peer?.name || t('a_dapp') })}</h2>
      <PeerInfo peer={peer} />
      <p className="small" data-testid="bridge-status">
        {t('bridge_status', { state: t(bridgeRetrying ? 'bridge_unreachable' : 'bridge_connected') })}{' '}
        <ProtocolVersion version={props.version ?? null} />
      </p>
      <label className="field">
        <span>{t('session_account')}</span>
        <select
          data-testid="session-account-switch"
          value={current?.id ?? ''}
          onChange={(e) => props.onSwitchAccount(e.target.value as AccountId)}
        >
          {!current && <option value="">{address}</option>}
          <AccountOptions options={options} />
        </select>
      </label>
      <p className="address" data-testid="session-account">
        {address && <Address address={address} />}
      </p>
      <label className="field">
        <span>{t('session_chain')}</span>
        <select
          data-testid="session-chain-switch"
          value={chainId}
          onChange={(e) => props.onSwitchChain(Number(e.target.value))}
        >
          {getChainOptions(devChainId, chainId).map((id) => (
            <option key={id} value={id}>
              {formatChain(id)}
            </option>
          ))}
        </select>
      </label>
      {chainId !== devChainId && (
        <p className="muted small">{t('other_chain_note', { chain: formatChain(devChainId) })}</p>
      )}
      <button type="button" className="danger" data-testid="disconnect-button" onClick={props.onDisconnect}>
        {t('disconnect')}
      </button>
    </section>
  )
}
