import { AccountPanel } from './components/AccountPanel/AccountPanel.js'
import { ConnectButton } from './components/ConnectButton/ConnectButton.js'
import { HistoryPlaceholder, PaymentHistory } from './components/PaymentHistory/PaymentHistory.js'
import { SendPayment } from './components/SendPayment/SendPayment.js'
import { SignIn } from './components/SignIn/SignIn.js'
import { SignMessage } from './components/SignMessage/SignMessage.js'
import { SignTypedData } from './components/SignTypedData/SignTypedData.js'
import { StatusBanner } from './components/StatusBanner/StatusBanner.js'
import { SwitchChain } from './components/SwitchChain/SwitchChain.js'
import { createPairlink, type Pairlink } from './createPairlink.js'
import { useBalance } from './hooks/useBalance.js'
import { useBlock } from './hooks/useBlock.js'
import { useConfig } from './hooks/useConfig.js'
import { usePairlink } from './hooks/usePairlink.js'
import { usePaymentHistory } from './hooks/usePaymentHistory.js'
import { useSignIn } from './hooks/useSignIn.js'
import { resultScope } from './resultScope.js'

/** The web app: loads the server's configuration, then the dapp. */
export function App() {
  const config = useConfig()
  return (
    <div className="page">
      <header className="top">
        <a className="brand" href="/">
          <img src="/icon.svg" alt="" width="28" height="28" />
          Pairlink
        </a>
      </header>
      {config.status === 'loading' ? (
        <p className="muted center" role="status">
          Loading…
        </p>
      ) : config.status === 'error' ? (
        <p className="banner error" role="alert" data-testid="config-error">
          {config.message}
        </p>
      ) : (
        <Dapp pairlink={createPairlink(config.config)} />
      )}
    </div>
  )
}

/** The dapp proper: the connect screen, or the account panel and the wallet actions. */
function Dapp({ pairlink }: { pairlink: Pairlink }) {
  const { walletClient, publicClient, provider, config } = pairlink
  const state = usePairlink(pairlink)
  const connected = state.status === 'connected' && state.session !== undefined
  // Results ('signed by this account', a payment's status) hold for one account on one chain: a new scope
  // remounts the cards that show them, so nothing stale stays on screen.
  const scope = resultScope(state.session)
  const block = useBlock(provider, connected, { chainId: state.session?.chainId })
  const balance = useBalance(publicClient, state.session?.address, block.head)
  // Only a connected wallet's account can be signed in; a disconnect keeps the server session for its return.
  const signIn = useSignIn(walletClient, connected ? state.session?.address : undefined, config.chainId)
  const history = usePaymentHistory(signIn.account?.address, block.number, signIn.sessionEnded)

  return (
    <main>
      <StatusBanner
        notice={state.notice}
        onDismiss={state.dismissNotice}
        bridgeUnreachable={state.bridgeUnreachable}
        rpcError={connected ? block.error : undefined}
        rewind={connected ? block.rewind : undefined}
      />
      {connected && state.session ? (
        <>
          <AccountPanel
            session={state.session}
            appChainId={config.chainId}
            balance={balance}
            blockNumber={block.number}
            transport={state.transport}
            onDisconnect={() => void state.disconnect()}
          />
          {/* A fixed grid, in reading order: each pair of cards shares a row and reserves room for its results,
              and the history takes the slot beside the payment, so nothing above moves when either fills in. */}
          <div className="actions">
            <SignIn signIn={signIn} />
            <SignMessage key={`sign:${scope}`} walletClient={walletClient} address={state.session.address} />
            <SignTypedData
              key={`typed:${scope}`}
              walletClient={walletClient}
              address={state.session.address}
              chainId={state.session.chainId}
            />
            <SwitchChain
              walletClient={walletClient}
              chainId={state.session.chainId}
              appChainId={config.chainId}
            />
            <SendPayment
              key={`pay:${scope}`}
              walletClient={walletClient}
              publicClient={publicClient}
              address={state.session.address}
              chainId={state.session.chainId}
              appChainId={config.chainId}
              balance={balance}
              blockNumber={block.head}
              signedIn={signIn.account !== undefined}
              onSent={(sent) => void history.record(sent)}
              lastRecord={history.lastRecord}
              records={signIn.account ? history.payments : undefined}
            />
            {signIn.account ? <PaymentHistory history={history} /> : <HistoryPlaceholder />}
          </div>
        </>
      ) : (
        <section className="card hero" aria-labelledby="hero-title" data-testid="connect-panel">
          <h1 id="hero-title">Connect your wallet</h1>
          <p className="muted">
            Scan the QR code with your wallet, or on a phone pick your wallet from the list. The connection is
            end-to-end encrypted through this server's bridge.
          </p>
          <ConnectButton status={state.status} onConnect={() => void state.connect()} />
          <p className="hint" data-testid="wallet-hint">
            No wallet? Open the{' '}
            <a href="/wallet/" target="_blank" rel="noopener">
              Pairlink test wallet<span className="visually-hidden"> (opens in a new tab)</span>
            </a>{' '}
            in another tab or on your phone, then paste the link from the QR window into it.
          </p>
        </section>
      )}
    </main>
  )
}
