import { getInjectedWallets, type InjectedWallet, watchInjectedWallets } from '@pairlink/modal/injected'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ConnectedView, preloadConnected } from './ConnectedView.js'
import { ConnectButton } from './components/ConnectButton/ConnectButton.js'
import { ConnectIntro } from './components/ConnectIntro/ConnectIntro.js'
import { ProtocolChoice } from './components/ProtocolChoice/ProtocolChoice.js'
import { StatusBanner } from './components/StatusBanner/StatusBanner.js'
import {
  createBrowserWalletPairlink,
  createPairlink,
  handleBrowserWallets,
  type Pairlink,
} from './createPairlink.js'
import { type AppConfig, useConfig } from './hooks/useConfig.js'
import { type Notice, usePairlink } from './hooks/usePairlink.js'
import { fill } from './i18n/fill.js'
import { t } from './i18n/i18n.js'
import { BROWSER_WALLET_KEY, storedBrowserWallet } from './injected/browserWalletStore.js'
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
          {t('loading')}
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
 * protocol is the person's choice (v2 unless they picked v1), offered while disconnected and remembered. A browser
 * wallet chosen in the modal (or restored from the last visit) takes the session's place until its session ends.
 */
function Dapp({ config }: { config: AppConfig }) {
  const [protocol, setProtocol] = useState<Protocol>(() => readProtocol(config))
  const [browser, setBrowser] = useState<BrowserSession | undefined>(() => {
    const wallet = findStoredBrowserWallet()
    return wallet && { wallet, start: 'restore' }
  })
  // What the screen said when a browser wallet's session ended: the connect screen after it goes on saying it.
  const [carried, setCarried] = useState<Notice | undefined>()
  const choose = (next: Protocol) => {
    saveProtocol(next)
    setProtocol(next)
  }
  // The app's tabs share one session: a choice made in another tab is this tab's too, so it picks up what that one
  // connects.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === PROTOCOL_STORAGE_KEY) setProtocol(readProtocol(config))
      // Another tab connected a browser wallet: this one restores that session (it ends itself when one is undone).
      const wallet =
        event.key === BROWSER_WALLET_KEY && event.newValue ? findStoredBrowserWallet() : undefined
      if (wallet) setBrowser((current) => current ?? { wallet, start: 'restore' })
    }
    globalThis.addEventListener?.('storage', onStorage)
    return () => globalThis.removeEventListener?.('storage', onStorage)
  }, [config])
  useEffect(
    () =>
      handleBrowserWallets((wallet) => {
        // Now, inside the person's click: a wallet may open its window only then. The session below follows it.
        void createBrowserWalletPairlink(config, wallet)
          .client.connect()
          .catch(() => {})
        setBrowser({ wallet, start: 'connect' })
      }),
    [config],
  )
  // A wallet extension may announce itself after the page's first render: its stored session is restored then.
  useEffect(() => {
    if (browser || !storedBrowserWallet()) return
    return watchInjectedWallets(() => {
      const wallet = findStoredBrowserWallet()
      if (wallet) setBrowser({ wallet, start: 'restore' })
    })
  }, [browser])
  const pairlink = browser
    ? createBrowserWalletPairlink(config, browser.wallet)
    : createPairlink(config, protocol)
  const ended = useCallback((notice: Notice | undefined) => {
    setCarried(notice)
    setBrowser(undefined)
  }, [])
  return (
    <Session
      key={browser ? browser.wallet.info.rdns : 'walletconnect'}
      pairlink={pairlink}
      start={browser?.start}
      notice={carried}
      onEnded={ended}
      protocol={protocol}
      onProtocol={choose}
    />
  )
}

/** A browser wallet's session: the wallet, and whether it is restored or was just chosen. */
type BrowserSession = { wallet: InjectedWallet; start: 'restore' | 'connect' }

/** The wallet of the browser-wallet session stored by the last visit, if the page has it (announced by now). */
function findStoredBrowserWallet(): InjectedWallet | undefined {
  const rdns = storedBrowserWallet()
  return rdns ? getInjectedWallets().find((wallet) => wallet.info.rdns === rdns) : undefined
}

/** Props of {@link Session}. */
type SessionProps = {
  pairlink: Pairlink
  start: BrowserSession['start'] | undefined
  notice: Notice | undefined
  /** A browser wallet's session ended (or was refused, or not restored), with what the screen said then. */
  onEnded: (notice: Notice | undefined) => void
  protocol: Protocol
  onProtocol: (protocol: Protocol) => void
}

/** One session's screens: connecting, connected (the account view), or the connect screen. */
function Session({ pairlink, start, notice, onEnded, protocol, onProtocol }: SessionProps) {
  const { config } = pairlink
  const state = usePairlink(pairlink, { start, notice })
  // A browser wallet's session gives the screen back to QR pairing once it is over.
  const active = useRef(false)
  useEffect(() => {
    if (!pairlink.browserWallet) return
    if (state.status !== 'disconnected') active.current = true
    else if (active.current) onEnded(state.notice)
  }, [pairlink, state.status, state.notice, onEnded])
  const banner = (
    <StatusBanner
      notice={state.notice}
      onDismiss={state.dismissNotice}
      bridgeUnreachable={state.bridgeUnreachable}
      server={pairlink.protocol === 2 ? 'relay' : 'bridge'}
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
        <h1 id="hero-title">{t('connect_title')}</h1>
        <ConnectIntro config={config} protocol={pairlink.protocol} />
        {config.relayUrl && !pairlink.browserWallet ? (
          <ProtocolChoice
            protocol={protocol}
            onChange={onProtocol}
            disabled={state.status === 'connecting'}
            relayNetwork={config.relayNetwork}
          />
        ) : null}
        <ConnectButton status={state.status} onConnect={connect} />
        <p className="hint" data-testid="wallet-hint">
          {fill(t('wallet_hint'), {
            link: (
              <a href="/wallet/" target="_blank" rel="noopener">
                {t('wallet_hint_link')}
                <span className="visually-hidden"> {t('opens_new_tab')}</span>
              </a>
            ),
          })}
        </p>
      </section>
    </main>
  )
}
