import { readDeepLinkChoice } from '@pairlink/modal/injected'
import { QueryClientProvider } from '@tanstack/react-query'
import { useMemo } from 'react'
import { WagmiProvider } from 'wagmi'
import { AccountPanel } from './components/AccountPanel/AccountPanel.js'
import { HistoryPlaceholder, PaymentHistory } from './components/PaymentHistory/PaymentHistory.js'
import { SendPayment } from './components/SendPayment/SendPayment.js'
import { SignIn } from './components/SignIn/SignIn.js'
import { SignMessage } from './components/SignMessage/SignMessage.js'
import { SignTypedData } from './components/SignTypedData/SignTypedData.js'
import { StatusBanner } from './components/StatusBanner/StatusBanner.js'
import { SwitchChain } from './components/SwitchChain/SwitchChain.js'
import type { Pairlink } from './createPairlink.js'
import { useBlock } from './hooks/useBlock.js'
import { useFollowedBalance } from './hooks/useFollowedBalance.js'
import type { PairlinkState, SessionView } from './hooks/usePairlink.js'
import { usePaymentHistory } from './hooks/usePaymentHistory.js'
import { type RequestEvents, RequestEventsProvider } from './hooks/useRequestLife.js'
import { useSessionConnection } from './hooks/useSessionConnection.js'
import { useSignIn } from './hooks/useSignIn.js'
import { WalletPromptProvider, walletPrompt } from './hooks/useWalletPrompt.js'
import { resultScope } from './resultScope.js'
import { queryClient, wagmiConfig } from './wagmiConfig.js'

/** Props of {@link Connected}. */
export type ConnectedProps = {
  pairlink: Pairlink
  state: PairlinkState
  session: SessionView
}

/**
 * The dapp with a wallet connected: the account panel and the wallet actions. Its own chunk (App.tsx loads it
 * lazily), with wagmi, viem, TanStack Query, the sign-in and the payment history, none of which the connect screen
 * needs.
 */
export function Connected(props: ConnectedProps) {
  return (
    // The session is the app's (usePairlink); useSessionConnection connects wagmi to it once, not at every render.
    <WagmiProvider config={wagmiConfig(props.pairlink)} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <Account {...props} />
      </QueryClientProvider>
    </WagmiProvider>
  )
}

function Account({ pairlink, state, session }: ConnectedProps) {
  const { provider, config } = pairlink
  // The wallet actions sign and send through wagmi's connection: the cards show once it stands.
  const connection = useSessionConnection()
  // Results ('signed by this account', a payment's status) hold for one account on one chain: a new scope
  // remounts the cards that show them, so nothing stale stays on screen.
  const scope = resultScope(session)
  const block = useBlock(provider, true, { chainId: session.chainId })
  const balance = useFollowedBalance(session.address, block.head, session.chainId)
  // Unmounted on disconnect; the server session stays for the wallet's return (asked again at `GET /api/me`).
  const signIn = useSignIn(session.address, config.chainId, state.oneClick)
  const history = usePaymentHistory(signIn.account?.address, block.number, signIn.sessionEnded)
  // Each card names the wallet while it waits ("Confirm in MetaMask…") and, on a phone, brings it forward first.
  const paired = pairlink.browserWallet === undefined
  const name = session.peerMeta?.name || (paired ? readDeepLinkChoice()?.name : undefined)
  const prompt = useMemo(() => walletPrompt({ name, paired }), [name, paired])
  // Each card shows its request's steps (sent, at the relay, answered, expired) from the provider's events.
  const requestEvents = useMemo<RequestEvents | undefined>(
    () =>
      pairlink.browserWallet
        ? undefined
        : {
            protocol: pairlink.protocol,
            watch: (listener) => {
              provider.on('requestStatus', listener)
              return () => provider.removeListener('requestStatus', listener)
            },
          },
    [pairlink, provider],
  )

  return (
    <WalletPromptProvider value={prompt}>
      <RequestEventsProvider value={requestEvents}>
        <main>
          <StatusBanner
            notice={state.notice}
            onDismiss={state.dismissNotice}
            bridgeUnreachable={state.bridgeUnreachable}
            server={pairlink.protocol === 2 ? 'relay' : 'bridge'}
            rpcError={block.error}
            rewind={block.rewind}
          />
          <AccountPanel
            session={session}
            appChainId={config.chainId}
            balance={balance}
            blockNumber={block.number}
            transport={state.transport}
            protocol={pairlink.protocol}
            browserWallet={pairlink.browserWallet !== undefined}
            onDisconnect={() => void state.disconnect()}
          />
          {/* A fixed grid, in reading order: each pair of cards shares a row and reserves room for its results, and the
          history takes the slot beside the payment, so nothing above moves when either fills in. */}
          <div className="actions">
            {connection ? (
              <>
                <SignIn signIn={signIn} />
                <SignMessage key={`sign:${scope}`} address={connection.address} />
                <SignTypedData
                  key={`typed:${scope}`}
                  address={connection.address}
                  chainId={connection.chainId}
                />
                <SwitchChain
                  chainId={connection.chainId}
                  appChainId={config.chainId}
                  protocol={pairlink.protocol}
                />
                <SendPayment
                  key={`pay:${scope}`}
                  address={connection.address}
                  chainId={connection.chainId}
                  appChainId={config.chainId}
                  protocol={pairlink.protocol}
                  balance={balance}
                  blockNumber={block.head}
                  signedIn={signIn.account !== undefined}
                  onSent={(sent) => void history.record(sent)}
                  lastRecord={history.lastRecord}
                  records={signIn.account ? history.payments : undefined}
                />
                {signIn.account ? <PaymentHistory history={history} /> : <HistoryPlaceholder />}
              </>
            ) : null}
          </div>
        </main>
      </RequestEventsProvider>
    </WalletPromptProvider>
  )
}
