import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { AccountId } from './accountStore.js'
import { AccountPicker } from './components/AccountPicker/AccountPicker.js'
import { Activity } from './components/Activity/Activity.js'
import { AuthenticateView } from './components/AuthenticateView/AuthenticateView.js'
import { CallRequest, RequestResult } from './components/CallRequest/CallRequest.js'
import { PairForm } from './components/PairForm/PairForm.js'
import { ProtocolVersion } from './components/ProtocolVersion/ProtocolVersion.js'
import { SessionCard } from './components/SessionCard/SessionCard.js'
import { SessionRequest } from './components/SessionRequest/SessionRequest.js'
import { StatusBanner } from './components/StatusBanner/StatusBanner.js'
import { readDeepLink, stripDeepLink } from './deepLink.js'
import { loadOpenWallet } from './hooks/loadOpenWallet.js'
import { PAIRING_TIMEOUT_MS } from './hooks/sessionState.js'
import { useAccounts } from './hooks/useAccounts.js'
import { useConfig } from './hooks/useConfig.js'
import { useWalletSession } from './hooks/useWalletSession.js'
import { t } from './i18n/i18n.js'
import { formatChain } from './i18n/words.js'

/** The reference wallet: one screen at a time — a call request, a session request, or home. */
export function App() {
  const { config, error: configError } = useConfig()
  const accounts = useAccounts(config)
  const session = useWalletSession({ config, account: accounts.selected.account })
  const devChainId = config?.chainId ?? 31337
  const deepLinkDone = useRef(false)
  // The pasted link outlives the pairing attempt: one that cannot pair or times out stays in the box to be fixed.
  const [draft, setDraft] = useState('')
  const paired = session.phase === 'session_request' || session.phase === 'connected'
  useEffect(() => {
    if (paired) setDraft('')
  }, [paired])
  // A link in the box: the session code starts loading now, so Pair does not wait for it.
  useEffect(() => {
    if (draft) loadOpenWallet().catch(() => {})
  }, [draft])

  // Deep link `/wallet/wc?uri=…`: pair once the settings are in, then drop the URI from the address bar.
  useEffect(() => {
    if (!config || deepLinkDone.current) return
    deepLinkDone.current = true
    const uri = readDeepLink(location)
    if (!/\/wc\/?$/.test(location.pathname)) return
    history.replaceState(null, '', stripDeepLink(location.pathname))
    if (!uri) return
    setDraft(uri)
    void session.pair(uri)
  }, [config, session.pair])

  const accountById = (id: AccountId) => accounts.options.find((option) => option.id === id)
  const switchAccount = (id: AccountId) => {
    const option = accountById(id)
    if (!option) return
    accounts.select(id)
    void session.switchAccount(option.account)
  }
  const dappName = session.peer?.name || t('the_dapp')
  const [request] = session.requests

  let screen: ReactNode
  if (request) {
    screen = (
      <CallRequest
        key={request.id}
        request={request}
        dappName={dappName}
        waiting={session.requests.length - 1}
        onApprove={session.approveRequest}
        onReject={session.rejectRequest}
      />
    )
  } else if (session.outcome) {
    screen = <RequestResult outcome={session.outcome} onDone={session.dismissOutcome} />
  } else if (session.phase === 'session_request' && session.auth) {
    screen = (
      <AuthenticateView
        peer={session.peer}
        request={session.auth}
        address={accounts.selected.account.address}
        onApprove={() =>
          session.approveSession({
            account: accounts.selected.account,
            chainId: session.requestedChainId ?? devChainId,
          })
        }
        onReject={() => session.rejectSession()}
      />
    )
  } else if (session.phase === 'session_request') {
    screen = (
      <SessionRequest
        peer={session.peer}
        requestedChainId={session.requestedChainId}
        devChainId={devChainId}
        version={session.version}
        proposal={session.proposal}
        options={accounts.options}
        selected={accounts.selected}
        onApprove={({ accountId, chainId }) => {
          const option = accountById(accountId) ?? accounts.selected
          accounts.select(option.id)
          void session.approveSession({ account: option.account, chainId })
        }}
        onReject={() => void session.rejectSession()}
      />
    )
  } else {
    screen = (
      <div data-testid="home">
        {session.phase === 'connected' && (
          <SessionCard
            peer={session.peer}
            address={session.address}
            chainId={session.chainId}
            devChainId={devChainId}
            version={session.version}
            options={accounts.options}
            bridgeRetrying={session.bridgeRetrying}
            onSwitchAccount={switchAccount}
            onSwitchChain={(chainId) => void session.switchChain(chainId)}
            onDisconnect={() => void session.disconnect()}
          />
        )}
        {session.phase === 'pairing' && (
          <section className="card" data-testid="pairing">
            <h2>{t('pairing')}</h2>
            <p>
              {t('pairing_waiting', { seconds: Math.round(PAIRING_TIMEOUT_MS / 1000) })}{' '}
              <ProtocolVersion version={session.version} />
            </p>
            <button type="button" data-testid="cancel-pairing" onClick={session.cancelPairing}>
              {t('cancel')}
            </button>
          </section>
        )}
        {session.phase === 'idle' && (
          <PairForm
            value={draft}
            onChange={setDraft}
            onPair={(uri) => void session.pair(uri)}
            disabled={!config}
          />
        )}
        {session.phase !== 'connected' && (
          <AccountPicker
            options={accounts.options}
            selected={accounts.selected}
            onSelect={accounts.select}
            onImport={accounts.importKey}
            onForget={accounts.forgetImported}
            kind={accounts.kind}
            smartAccountsOffered={accounts.smartAccountsOffered}
            onKind={accounts.setKind}
          />
        )}
        <Activity items={session.activity} />
      </div>
    )
  }

  return (
    <main className="app">
      <header className="app-header">
        <img src={`${import.meta.env.BASE_URL}icon.svg`} alt="" width={28} height={28} />
        <h1>Pairlink Wallet</h1>
        <span className="chip" data-testid="network">
          {formatChain(devChainId)}
        </span>
      </header>
      {configError && <StatusBanner status={{ tone: 'warning', text: configError }} />}
      {session.bridgeRetrying && session.phase !== 'idle' && (
        <StatusBanner status={{ tone: 'warning', text: t('bridge_retrying') }} />
      )}
      <StatusBanner status={session.status} />
      {screen}
      <footer className="muted small">{t('dev_footer')}</footer>
    </main>
  )
}
