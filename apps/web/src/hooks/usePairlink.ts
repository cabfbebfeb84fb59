import type { ConnectReturnType, TransportState } from '@pairlink/client'
import { type ClientMeta, V1_ERRORS } from '@pairlink/protocol'
import type { Cacao } from '@pairlink/protocol/v2'
import { useCallback, useEffect, useRef, useState } from 'react'
import { getAddress } from 'viem'
import { requestOneClickSignIn, signInWithCacaos } from '../components/SignIn/oneClickSignIn.js'
import type { Pairlink } from '../createPairlink.js'
import {
  describeDisconnect,
  describeError,
  hasError,
  isRelayUnreachable,
  RELAY_REFUSED,
} from '../describeError.js'
import { describeServerError } from '../describeServerError.js'
import { t } from '../i18n/i18n.js'
import type { SignedInAccount } from '../serverApi.js'

/** How long the bridge socket may stay connecting before the app says the bridge is unreachable. */
const BRIDGE_GRACE_MS = 2_000

/** How long a success or info message stays; errors stay until dismissed or replaced. */
const NOTICE_MS = 8_000

/**
 * A message for the person about the session, shown in the banner. `outage` marks one that only says the relay could
 * not be reached: the standing warning says so while it shows, and the message goes when the socket is back.
 */
export type Notice = { tone: 'info' | 'success' | 'error'; text: string; outage?: true }

/** The connected wallet as the account panel shows it. */
export type SessionView = {
  /** The first account, checksummed (EIP-55). */
  address: `0x${string}`
  chainId: number
  peerMeta: ClientMeta | null
}

/**
 * The sign-in that came with the connection (WalletConnect v2 one-click auth): the server checking the wallet's CACAO,
 * then its account or its refusal. `useSignIn` takes it as the outcome of a sign-in.
 */
export type OneClickSignIn =
  | { status: 'verifying' }
  | { status: 'signed-in'; account: SignedInAccount }
  | { status: 'refused'; error: unknown }

/** Return type of {@link usePairlink}. */
export type PairlinkState = {
  status: 'disconnected' | 'connecting' | 'connected'
  session: SessionView | undefined
  /** Set when the wallet signed in with its approval; `undefined` for a plain connection (sign in as usual). */
  oneClick: OneClickSignIn | undefined
  /** The bridge socket's state. */
  transport: TransportState
  /** The socket has been trying to (re)connect for longer than {@link BRIDGE_GRACE_MS}. */
  bridgeUnreachable: boolean
  notice: Notice | undefined
  connect: () => Promise<void>
  disconnect: () => Promise<void>
  dismissNotice: () => void
}

function toSession(
  state: { accounts: string[]; chainId: number; peerMeta?: ClientMeta | null },
  meta: ClientMeta | null,
) {
  const first = state.accounts[0]
  if (!first) return undefined
  return { address: getAddress(first), chainId: state.chainId, peerMeta: state.peerMeta ?? meta }
}

/** The CACAOs a v2 wallet signed in with, from the `connect` event (v1 and browser wallets have none). */
function cacaosOf(connected: ConnectReturnType): Cacao[] | undefined {
  const { cacaos } = connected as { cacaos?: Cacao[] | undefined }
  return cacaos?.length ? cacaos : undefined
}

function restored(client: Pairlink['client']): Notice {
  return {
    tone: 'info',
    text: t('welcome_back', { wallet: client.peerMeta?.name || t('the_wallet') }),
  }
}

/** Options of {@link usePairlink}. */
export type UsePairlinkOptions = {
  /**
   * How the session starts, when not from the connect screen: `'restore'` shows `connecting` until the client's
   * `ready` tells whether a stored session came back; `'connect'` connects at once (a browser wallet just chosen).
   */
  start?: 'restore' | 'connect' | undefined
  /** The notice to show first: what the previous session's screen was saying when it ended. */
  notice?: Notice | undefined
}

/**
 * The session's lifecycle for React: restores a stored session on load, connects through the QR modal, follows
 * the client's events (connect, update, disconnect, bridge socket) and turns each outcome into a {@link Notice}.
 *
 * @example
 * const { status, session, connect } = usePairlink(createPairlink(config))
 */
export function usePairlink(
  { client, provider, showRefusal, protocol, browserWallet, config }: Pairlink,
  options: UsePairlinkOptions = {},
): PairlinkState {
  const { start } = options
  const [status, setStatus] = useState<PairlinkState['status']>(
    client.connected ? 'connected' : start ? 'connecting' : 'disconnected',
  )
  const [session, setSession] = useState<SessionView | undefined>(() =>
    client.connected ? toSession(client, client.peerMeta) : undefined,
  )
  const [transport, setTransport] = useState<TransportState>(client.transportState)
  const [bridgeUnreachable, setBridgeUnreachable] = useState(false)
  const [notice, setNotice] = useState<Notice | undefined>(() =>
    client.connected ? restored(client) : options.notice,
  )
  const [oneClick, setOneClick] = useState<OneClickSignIn | undefined>()
  // Each connection's own: a verify answered after the session ended, or after another connect, is dropped.
  const connection = useRef(0)
  const statusRef = useRef(status)
  statusRef.current = status
  // Set while our own Disconnect runs, so its `disconnect` event is not mistaken for the wallet's.
  const disconnecting = useRef(false)

  useEffect(() => {
    let bridgeTimer: ReturnType<typeof setTimeout> | undefined
    const onTransport = (state: TransportState) => {
      setTransport(state)
      clearTimeout(bridgeTimer)
      if (state === 'connecting') bridgeTimer = setTimeout(() => setBridgeUnreachable(true), BRIDGE_GRACE_MS)
      else setBridgeUnreachable(false)
      // "Can't reach the relay" is no longer true once its socket is open again.
      if (state === 'open') setNotice((current) => (current?.outage ? undefined : current))
    }
    onTransport(client.transportState)
    const offs = [
      client.on('transport', ({ state }) => onTransport(state)),
      client.on('connect', (connected) => {
        const id = ++connection.current
        const name = connected.peerMeta?.name || 'the wallet'
        setStatus('connected')
        setSession(toSession(connected, client.peerMeta))
        const cacaos = cacaosOf(connected)
        setOneClick(cacaos && { status: 'verifying' })
        if (!cacaos) {
          setNotice({ tone: 'success', text: t('connected_notice', { wallet: name }) })
          return
        }
        // One approval connected and signed: the server checks the sign-in, which no other wallet prompt follows.
        setNotice({ tone: 'info', text: t('connected_signing', { wallet: name }) })
        signInWithCacaos(cacaos, config.chainId).then(
          (account) => {
            if (id !== connection.current) return
            setOneClick({ status: 'signed-in', account })
            setNotice({
              tone: 'success',
              text: t('connected_signed_in', { wallet: name, address: account.address }),
            })
          },
          (error: unknown) => {
            if (id !== connection.current) return
            setOneClick({ status: 'refused', error })
            setNotice({
              tone: 'error',
              text: t('connected_not_signed_in', {
                wallet: name,
                reason: describeServerError(error, 'signIn'),
              }),
            })
          },
        )
      }),
      client.on('session_update', (update) => {
        setSession((current) => (current ? (toSession(update, current.peerMeta) ?? current) : current))
      }),
      client.on('disconnect', ({ message }) => {
        // A rejected connection also ends in `disconnect`; `connect()` reports that one itself.
        if (statusRef.current !== 'connected') return
        connection.current++
        setStatus('disconnected')
        setSession(undefined)
        setOneClick(undefined)
        // The app's tabs share the session: Disconnect in one ends it in all, with the client's local message.
        const by = disconnecting.current
          ? 'here'
          : message === V1_ERRORS.SESSION_DISCONNECTED_LOCAL
            ? 'tab'
            : 'wallet'
        setNotice({ tone: by === 'wallet' ? 'error' : 'info', text: describeDisconnect(by) })
      }),
    ]
    // The wallet's answer to wallet_switchEthereumChain may come before its session update.
    const onChain = (chainId: string) =>
      setSession((current) => (current ? { ...current, chainId: Number(chainId) } : current))
    provider.on('chainChanged', onChain)
    // A stored session restores synchronously from localStorage; async storage settles `ready` later.
    void client.ready.then(() => {
      if (client.connected && statusRef.current !== 'connected') {
        setStatus('connected')
        setSession(toSession(client, client.peerMeta))
        setNotice(restored(client))
      } else if (!client.connected && start === 'restore') setStatus('disconnected')
    })
    return () => {
      clearTimeout(bridgeTimer)
      for (const off of offs) off()
      provider.removeListener('chainChanged', onChain)
    }
  }, [client, provider, start, config.chainId])

  useEffect(() => {
    if (!notice || notice.tone === 'error') return
    const timer = setTimeout(
      () => setNotice((current) => (current === notice ? undefined : current)),
      NOTICE_MS,
    )
    return () => clearTimeout(timer)
  }, [notice])

  const connect = useCallback(async () => {
    setNotice(undefined)
    setStatus('connecting')
    try {
      // Over a v2 pairing the sign-in rides along: one approval connects and signs in, and a wallet without one-click
      // auth answers the same pairing's proposal instead. No nonce (server down, rate-limited): a plain connect.
      const authenticate = protocol === 2 && !browserWallet ? await requestOneClickSignIn() : undefined
      await client.connect({ chainId: provider.chainId, ...(authenticate ? { authenticate } : {}) })
    } catch (error) {
      // A wallet may still approve after the modal was closed; the `connect` event then takes over.
      setStatus(client.connected ? 'connected' : 'disconnected')
      const text = describeError(error, 'connect')
      setNotice(isRelayUnreachable(error) ? { tone: 'error', text, outage: true } : { tone: 'error', text })
      // The relay refused the site: the modal says the same in place of a code no wallet could use. Nothing retries.
      if (hasError(error, (e) => e.code === RELAY_REFUSED)) showRefusal?.(text)
    }
  }, [client, provider, showRefusal, protocol, browserWallet])

  // A wallet chosen a moment ago: its request for accounts is under way (the client shares it), and this follows it.
  const connectOnMount = start === 'connect'
  useEffect(() => {
    if (connectOnMount) void connect()
  }, [connectOnMount, connect])

  const disconnect = useCallback(async () => {
    disconnecting.current = true
    try {
      await provider.disconnect()
    } finally {
      disconnecting.current = false
      connection.current++
      setStatus('disconnected')
      setSession(undefined)
      setOneClick(undefined)
    }
  }, [provider])

  const dismissNotice = useCallback(() => setNotice(undefined), [])

  return {
    status,
    session,
    oneClick,
    transport,
    bridgeUnreachable,
    notice,
    connect,
    disconnect,
    dismissNotice,
  }
}
