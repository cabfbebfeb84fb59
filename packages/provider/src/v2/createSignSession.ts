import {
  createLocalStorage,
  createMemoryStorage,
  type OnRequestStatus,
  RequestTimeoutError,
} from '@pairlink/client'
import {
  createSignClient,
  disconnect,
  getSession,
  getSessions,
  RelayRefusedError,
  request,
  type Session,
} from '@pairlink/client/v2'
import { ModalNotProvidedError, SessionError, V1_ERRORS } from '@pairlink/protocol'
import { type Cacao, WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import { ConnectionRefusedError, DisconnectedError, UnrecognizedChainError } from '../errors.js'
import { withDeadline } from '../requestStatus.js'
import type {
  CreateV2ClientParameters,
  V2AuthenticateParameters,
  V2ClientEvents,
  V2ClientState,
  V2ConnectReturnType,
} from '../v2Client.js'
import { accountsOn, chainsOf, PROPOSED_METHODS, toChainNumber, toProviderError } from './namespaces.js'
import { pairWithModal } from './pairWithModal.js'

/** Parameters of {@link createSignSession}: the thin client's parameters, the state it reads and its `emit`. */
export type CreateSignSessionParameters = {
  parameters: CreateV2ClientParameters
  state: V2ClientState
  emit: <event extends keyof V2ClientEvents>(event: event, payload: V2ClientEvents[event]) => void
}

/** Return type of {@link createSignSession}: what the thin client's methods call once the v2 chunk is in. */
export type SignSession = {
  ready: Promise<void>
  connect(
    chainId: number | undefined,
    authenticate?: V2AuthenticateParameters | undefined,
  ): Promise<V2ConnectReturnType>
  request(
    args: { method: string; params?: unknown },
    options?: { timeout?: number | undefined; onStatus?: OnRequestStatus | undefined },
  ): Promise<never>
  killSession(): Promise<void>
  switchChain(chainId: number): Promise<void>
  close(): Promise<void>
}

// The two EIP-1193 events a dapp follows.
const EVENTS = ['chainChanged', 'accountsChanged']

/**
 * The v2 half of `createV2Client`, in a chunk of its own: a sign client on the relay, one eip155 session at a time,
 * its chain chosen by the dapp among the session's, and a pairing URI that is replaced in the modal when it expires.
 */
export function createSignSession({ parameters, state, emit }: CreateSignSessionParameters): SignSession {
  const storageKey = parameters.storageKey ?? 'pairlink-v2'
  const storage =
    parameters.storage ?? (globalThis.localStorage ? createLocalStorage() : createMemoryStorage())
  const chainKey = `${storageKey}:chain`
  const origin = globalThis.location?.origin
  const metadata =
    parameters.metadata ??
    (origin
      ? { name: globalThis.document?.title || origin, description: '', url: origin, icons: [] }
      : { name: 'Pairlink dapp', description: '', url: 'https://pairlink.invalid', icons: [] })
  const client = createSignClient({
    // A project id alone means WalletConnect's network, as WalletConnect's own connector reads it.
    relayUrl: parameters.relayUrl ?? (parameters.projectId ? WALLETCONNECT_RELAY_URL : undefined),
    projectId: parameters.projectId,
    metadata,
    storage,
    storageKey,
    WebSocket: parameters.WebSocket,
    reconnect: parameters.reconnect,
    // The dapp's tabs share its session, as v1's do: what one connects, changes or ends, the others follow.
    tabs: true,
  })

  const view = (session: Session, cacaos?: Cacao[] | undefined): V2ConnectReturnType => ({
    peerId: session.peer.publicKey,
    peerMeta: { ...session.peer.metadata, description: session.peer.metadata.description ?? '' },
    chainId: state.chainId,
    accounts: [...state.accounts],
    ...(cacaos ? { cacaos } : {}),
  })

  /**
   * Takes `session` on `chainId` (else its first chain); emits `connect` when it is new (with the CACAOs it came with),
   * else `session_update`.
   */
  function use(session: Session, chainId?: number, cacaos?: Cacao[] | undefined) {
    const chains = chainsOf(session)
    const chain = chainId !== undefined && chains.includes(chainId) ? chainId : chains[0]
    if (chain === undefined) return false
    const fresh = state.topic !== session.topic
    state.topic = session.topic
    state.connected = true
    state.chainId = chain
    state.accounts = accountsOn(session, chain)
    state.peerMeta = view(session).peerMeta
    void storage.set(chainKey, JSON.stringify({ topic: session.topic, chainId: chain }))
    if (fresh) emit('connect', view(session, cacaos))
    else emit('session_update', { chainId: chain, accounts: [...state.accounts] })
    return true
  }

  function end(topic: string, message: string) {
    if (topic !== state.topic) return
    Object.assign(state, { connected: false, accounts: [], chainId: 0, peerMeta: null, topic: undefined })
    void storage.remove(chainKey)
    emit('disconnect', { message })
  }

  client.on('relay_refused', (error) => emit('relay_refused', new ConnectionRefusedError(error)))
  client.on('transport', ({ state: transport }) => {
    state.transportState = transport
    emit('transport', { state: transport })
  })
  // Ended by the wallet, or by this dapp's Disconnect in another tab (v1's local message, as v1's tabs say it).
  client.on('session_delete', ({ topic, tab }) =>
    end(topic, tab ? V1_ERRORS.SESSION_DISCONNECTED_LOCAL : V1_ERRORS.SESSION_DISCONNECTED_REMOTE),
  )
  // Another tab connected: this one takes the session, and a connect of its own waiting in its modal ends with it.
  let join: ((session: Session) => void) | undefined
  client.on('session_connect', ({ session, tab }) => {
    if (!tab || state.connected) return
    use(session)
    join?.(session)
  })
  client.on('session_expire', ({ topic }) => end(topic, 'Session expired'))
  client.on('session_update', ({ topic }) => {
    const session = getSession(client, { topic })
    if (session && topic === state.topic) use(session, state.chainId)
  })
  client.on('session_event', ({ topic, params: { event } }) => {
    const session = getSession(client, { topic })
    if (!session || topic !== state.topic) return
    const chainId = toChainNumber(event.data)
    if (event.name === 'chainChanged' && chainId !== undefined && chainsOf(session).includes(chainId))
      use(session, chainId)
    if (event.name === 'accountsChanged' && Array.isArray(event.data)) {
      // Plain addresses or CAIP-10 ones (`eip155:1:0x…`), as the SDK's ethereum-provider accepts.
      state.accounts = event.data.map((account) => String(account).split(':').pop() as string)
      emit('session_update', { chainId: state.chainId, accounts: [...state.accounts] })
    }
  })

  const ready = client.ready.then(async () => {
    let stored: { topic?: string; chainId?: number } = {}
    try {
      stored = JSON.parse((await storage.get(chainKey)) ?? '{}')
    } catch {}
    // The session this page last used, else the newest one with an eip155 account.
    const sessions = getSessions(client).sort((a, b) => b.expiry - a.expiry)
    const session = sessions.find((s) => s.topic === stored.topic) ?? sessions.find((s) => chainsOf(s).length)
    if (session && !state.connected) use(session, stored.chainId)
  })

  async function connectOnce(
    chainId: number | undefined,
    auth: V2AuthenticateParameters | undefined,
  ): Promise<V2ConnectReturnType> {
    const { modal } = parameters
    if (!modal) throw new ModalNotProvidedError(V1_ERRORS.QRCODE_MODAL_NOT_PROVIDED)
    await ready
    if (state.connected) throw new SessionError(V1_ERRORS.SESSION_CONNECTED)
    const chains = [...new Set([chainId ?? 1, ...(parameters.chains ?? [])])]
    const optionalNamespaces = {
      eip155: { chains: chains.map((id) => `eip155:${id}`), methods: PROPOSED_METHODS, events: EVENTS },
    }
    const { session, auths } = await pairWithModal({
      client,
      modal,
      modalOptions: parameters.modalOptions,
      proposal: { optionalNamespaces, expiry: parameters.pairingExpiry },
      authenticate: auth && {
        nonce: auth.nonce,
        // The sign-in is for this page unless the app says otherwise (the metadata's URL outside browsers).
        domain: auth.domain ?? globalThis.location?.host ?? new URL(metadata.url).host,
        uri: auth.uri ?? origin ?? metadata.url,
        chains: (auth.chains ?? chains).map((id) => `eip155:${id}`),
        methods: [...(auth.methods ?? PROPOSED_METHODS)],
        ...(auth.statement === undefined ? {} : { statement: auth.statement }),
        ...(auth.exp === undefined ? {} : { exp: auth.exp }),
        ...(auth.nbf === undefined ? {} : { nbf: auth.nbf }),
        ...(auth.verifyCacao === undefined ? {} : { verifyCacao: auth.verifyCacao }),
      },
      joined: new Promise((resolve) => {
        join = resolve
      }),
      // One session at a time: a second wallet answering an older code is told no.
      onSession: (settled, cacaos) =>
        state.connected && state.topic !== settled.topic
          ? void disconnect(client, { topic: settled.topic }).catch(() => {})
          : void use(settled, chainId, cacaos),
      onClose: () => emit('modal_closed', {}),
    })
    return view(session, auths)
  }

  return {
    ready,
    connect: (chainId, authenticate) =>
      connectOnce(chainId, authenticate).catch((error: unknown) => {
        throw error instanceof RelayRefusedError ? new ConnectionRefusedError(error) : error
      }),
    async request(args, options = {}) {
      await ready
      const topic = state.topic
      if (!topic) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
      const { timeout } = options
      // The provider's time-out is the request's expiry on the wire when the SDK's bounds (300…604800 s) allow it, so
      // the wallet stops offering it when this dapp stops waiting; a shorter one only ends the dapp's wait.
      const seconds = timeout === undefined ? 0 : Math.ceil(timeout / 1000)
      const status = withDeadline(options.onStatus, timeout)
      const sent = request<never>(client, {
        topic,
        chainId: `eip155:${state.chainId}`,
        request: { method: args.method, params: args.params },
        expiry: seconds >= 300 && seconds <= 604_800 ? seconds : undefined,
        onStatus: status.onStatus,
      }).catch((error: unknown) => {
        throw error instanceof RelayRefusedError ? new ConnectionRefusedError(error) : toProviderError(error)
      })
      if (timeout === undefined) return sent
      let timer: ReturnType<typeof setTimeout> | undefined
      return Promise.race([
        sent,
        new Promise<never>((_, fail) => {
          timer = setTimeout(() => {
            status.expire()
            fail(new RequestTimeoutError(args.method, timeout))
          }, timeout)
        }),
      ]).finally(() => clearTimeout(timer))
    },
    async killSession() {
      await ready
      const topic = state.topic
      if (!topic) return
      await disconnect(client, { topic }).catch(() => {})
      end(topic, V1_ERRORS.SESSION_DISCONNECTED_LOCAL)
    },
    async switchChain(chainId) {
      await ready
      const session = state.topic ? getSession(client, { topic: state.topic }) : undefined
      if (!session) throw new DisconnectedError(V1_ERRORS.SESSION_DISCONNECTED)
      const approved = chainsOf(session).map((id) => `eip155:${id}`)
      if (!approved.includes(`eip155:${chainId}`))
        throw new UnrecognizedChainError(
          `Chain ${chainId} (eip155:${chainId}) is not in this session: the wallet approved ${approved.join(', ')}. Disconnect and connect again to approve it.`,
          { approvedChains: approved },
        )
      use(session, chainId)
    },
    close: () => client.close(),
  }
}
