import { useEffect, useState } from 'react'
import { ConnectedView, preloadConnected } from './ConnectedView.js'
import { ConnectButton } from './components/ConnectButton/ConnectButton.js'
import { ProtocolChoice } from './components/ProtocolChoice/ProtocolChoice.js'
import { StatusBanner } from './components/StatusBanner/StatusBanner.js'
import { createPairlink } from './createPairlink.js'
import { type AppConfig, useConfig } from './hooks/useConfig.js'
import { usePairlink } from './hooks/usePairlink.js'
import { rememberFocus } from './lazyModal.js'
import { PROTOCOL_STORAGE_KEY, type Protocol, readProtocol, saveProtocol } from './protocolChoice.js'

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
        <Dapp config={config.config} />
      )}
    </div>
  )
}

/**
 * The dapp proper: the connect screen, or (loaded with it) the account panel and the wallet actions. The session's
 * protocol is the person's choice (v2 unless they picked v1), offered while disconnected and remembered.
 */
function Dapp({ config }: { config: AppConfig }) {
  const [protocol, setProtocol] = useState<Protocol>(() => readProtocol(config))
  const pairlink = createPairlink(config, protocol)
  const state = usePairlink(pairlink)
  const choose = (next: Protocol) => {
    saveProtocol(next)
    setProtocol(next)
  }
  // The app's tabs share one session: a choice made in another tab is this tab's too, so it picks up what that one
  // connects.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === PROTOCOL_STORAGE_KEY) setProtocol(readProtocol(config))
    }
    globalThis.addEventListener?.('storage', onStorage)
    return () => globalThis.removeEventListener?.('storage', onStorage)
  }, [config])
  const banner = (
    <StatusBanner
      notice={state.notice}
      onDismiss={state.dismissNotice}
      bridgeUnreachable={state.bridgeUnreachable}
      rpcError={undefined}
    />
  )
  if (state.status === 'connected' && state.session) {
    // Its own chunk (viem, the cards): fetched on Connect, or now for a session restored on load.
    return <ConnectedView pairlink={pairlink} state={state} session={state.session} banner={banner} />
  }
  const connect = () => {
    // Focus goes back to Connect wallet when the modal closes, even when the URI comes after the button was disabled.
    rememberFocus()
    // The connected view downloads while the person scans the QR code.
    void preloadConnected()
    void state.connect()
  }
  return (
    <main>
      {banner}
      <section className="card hero" aria-labelledby="hero-title" data-testid="connect-panel">
        <h1 id="hero-title">Connect your wallet</h1>
        <p className="muted">
          Scan the QR code with your wallet, or on a phone pick your wallet from the list. The connection is
          end-to-end encrypted through this server's bridge.
        </p>
        {config.relayUrl ? (
          <ProtocolChoice protocol={protocol} onChange={choose} disabled={state.status === 'connecting'} />
        ) : null}
        <ConnectButton status={state.status} onConnect={connect} />
        <p className="hint" data-testid="wallet-hint">
          No wallet? Open the{' '}
          <a href="/wallet/" target="_blank" rel="noopener">
            Pairlink test wallet<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{' '}
          in another tab or on your phone, then paste the link from the QR window into it.
        </p>
      </section>
    </main>
  )
}
