import { bytesToHex, createEmitter, createSerialQueue, type Emitter } from '@pairlink/protocol'
import { type Cacao, getClientId, signRelayJwt } from '@pairlink/protocol/v2'
import { getBrowserHost } from '../browser.js'
import { InvalidClientOptionsError } from '../errors.js'
import { createLocalStorage, createMemoryStorage, type SessionStorage } from '../storage.js'
import type { ReconnectOptions, TransportState, WebSocketConstructor } from '../transport.js'
import { type RelayRefusedError, SIGN_ERRORS, SignError } from './errors.js'
import { expire, scheduleExpiry } from './expiry.js'
import { getTopics, type Internal, type StoredState, save, setInternal } from './internal.js'
import { flushOutbox } from './outbox.js'
import { receive } from './receive.js'
import { createRelayConnection } from './relay.js'
import { closeTabs, knowSessions, openTabs, tellTabs } from './tabs.js'
import type {
  AuthenticateRequest,
  ErrorResponse,
  Metadata,
  Proposal,
  Session,
  SessionEventParams,
  SessionNamespace,
  SessionRequestParams,
} from './types.js'
import { getRelayUserAgent } from './userAgent.js'

/** Every event of a v2 client and its one payload (the SDK's event names and payloads). */
export type SignClientEvents = {
  /** Dapp: `connect` made a pairing URI to show (QR code, deep link). Never log it: it holds the key. */
  display_uri: { uri: string }
  /** Wallet: a dapp proposes a session; answer with `approve` or `reject`. */
  session_proposal: { id: number; params: Proposal }
  /**
   * Dapp: a wallet settled a session; `tab`: in another tab sharing the storage (`tabs`), which this one joins;
   * `auths`: the CACAOs of a one-click auth (`authenticate`) that made it.
   */
  session_connect: { session: Session; tab?: true | undefined; auths?: Cacao[] | undefined }
  /**
   * Wallet: a dapp asks to sign in and connect in one step (`wc_sessionAuthenticate`); answer with
   * `approveAuthenticate` or `rejectAuthenticate`. While the app listens, the dapp's fallback proposal on the same
   * pairing is not emitted (the SDK's rule); without a listener the dapp is told at once to fall back to it.
   */
  session_authenticate: { id: number; topic: string; params: AuthenticateRequest }
  /** Wallet: a dapp's request, within the session's namespaces; answer with `respond`. */
  session_request: { id: number; topic: string; params: SessionRequestParams }
  /** Dapp: the wallet emitted an event (`chainChanged`, `accountsChanged`, …). */
  session_event: { id: number; topic: string; params: SessionEventParams }
  /** Dapp: the wallet changed the session's namespaces (`id` 0 when another tab heard it first, `tabs`). */
  session_update: { id: number; topic: string; params: { namespaces: Record<string, SessionNamespace> } }
  /** The peer extended the session by seven days. */
  session_extend: { id: number; topic: string }
  session_ping: { id: number; topic: string }
  /**
   * The peer ended the session (`id` 0 when another tab heard it first, `tabs`); `tab`: this side did, with
   * `disconnect` in another tab sharing the storage.
   */
  /** `reason`: the peer's, when it gave one (5000 from a dapp that gave up on a pairing before the wallet approved). */
  session_delete: { id: number; topic: string; tab?: true | undefined; reason?: ErrorResponse | undefined }
  /** The session reached its expiry and was removed. */
  session_expire: { topic: string }
  /** Wallet: a received request reached its expiry unanswered. */
  session_request_expire: { id: number }
  /** A proposal reached its expiry unanswered (the dapp's `approval()` rejects). */
  proposal_expire: { id: number }
  /** The relay socket changed state. */
  transport: { state: TransportState }
  /**
   * The relay refused this client (close 3000 or 4xxx, or HTTP 401/403 in Node): a wrong or missing project id, or an
   * origin the project does not allow. The socket stays closed (no reconnect); the next call that needs the relay
   * tries once more.
   */
  relay_refused: RelayRefusedError
}

/** Counters of what the client received. */
export type SignClientStats = {
  /** Messages on the client's own topics, opened and handled. */
  received: number
  /** Messages that failed to decrypt or were not JSON-RPC, and malformed relay frames. */
  dropped: number
  /** Messages for unknown topics, pushes seen before, answers nobody waits for, unknown methods. */
  ignored: number
  /** Times the relay socket was re-opened after being lost. */
  reconnects: number
}

/** Parameters of {@link createSignClient}. */
export type CreateSignClientParameters = {
  /** The relay (`ws:`/`wss:`). @default the page's own server (`wss://` + `location.host`) in browsers */
  relayUrl?: string | undefined
  /** Sent as `projectId` to relays that need one; Pairlink's own relay accepts any unless configured. */
  projectId?: string | undefined
  /** What this side announces to the peer. */
  metadata: Metadata
  /**
   * Where the client keeps its identity, pairings and sessions (one key, JSON): a new client on the same storage
   * restores them. @default `localStorage` in browsers, memory in Node
   */
  storage?: SessionStorage | false | undefined
  /** @default 'pairlink-v2' */
  storageKey?: string | undefined
  /** @default globalThis.WebSocket, else the `ws` package */
  WebSocket?: WebSocketConstructor | undefined
  /** Reconnect backoff. @default { minDelay: 500, maxDelay: 30000, connectTimeout: 10000 } */
  reconnect?: ReconnectOptions | undefined
  /** How long the relay may take to answer one call, in ms. @default 15000 */
  requestTimeout?: number | undefined
  /** Source of reconnect jitter, for tests. @default Math.random */
  random?: (() => number) | undefined
  /**
   * Share the sessions with the other tabs on the same `storage` (through its `channel`, which `localStorage`'s has):
   * a session one tab settles, changes or ends, the others follow, with `session_connect` / `session_delete` marked
   * `tab: true` when that tab's own doing; each tab keeps its own socket, and where the browser has Web Locks one tab
   * answers the wallet's requests. For a dapp: a wallet's tabs would each prompt. @default false
   */
  tabs?: boolean | undefined
}

/** A WalletConnect v2 Sign client, both roles; actions take it as their first argument. */
export type SignClient = {
  /** The client's relay identity (`did:key:z6Mk…`), `''` until `ready`. */
  readonly clientId: string
  readonly relayUrl: string
  readonly metadata: Metadata
  /** Settles when the stored state was read (pairings and sessions restored). */
  readonly ready: Promise<void>
  readonly transportState: TransportState
  /** Counters of what the client received (a copy). */
  readonly stats: Readonly<SignClientStats>
  on: Emitter<SignClientEvents>['on']
  once: Emitter<SignClientEvents>['once']
  off: Emitter<SignClientEvents>['off']
  /**
   * Closes the relay socket and stops the timers; calls waiting for the peer reject with `ERR_CLIENT_CLOSED`. The
   * stored state stays: to go on, create a new client on the same storage.
   */
  close(): Promise<void>
}

const emptyState = (seed: string): StoredState => ({
  seed,
  keys: {},
  pairings: {},
  proposed: {},
  proposals: {},
  sessions: {},
  requests: {},
  outbox: {},
  authRequests: {},
  authenticating: {},
})

const randomHex = () => bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)))

/**
 * Creates a WalletConnect v2 Sign client on one relay. It restores the pairings and sessions kept in `storage` and
 * reopens the relay socket when it has any; a dapp goes on with `connect`, a wallet with `pair`.
 *
 * @example
 * const client = createSignClient({ relayUrl: 'wss://pairlink.example', metadata })
 * const { uri, approval } = await connect(client, { optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } } })
 * const session = await approval()
 */
export function createSignClient(parameters: CreateSignClientParameters): SignClient {
  const host = getBrowserHost()
  const relayUrl =
    parameters.relayUrl ??
    (host ? `${globalThis.location.protocol === 'https:' ? 'wss' : 'ws'}://${host}` : undefined)
  if (!relayUrl) throw new InvalidClientOptionsError('Missing relayUrl')
  const storage =
    parameters.storage === false
      ? undefined
      : (parameters.storage ??
        (host && globalThis.localStorage ? createLocalStorage() : createMemoryStorage()))
  // `sub`: random per client instance, the same across its reconnects (relay-v2.md §2).
  const sub = randomHex()
  const query = new URLSearchParams({ ua: getRelayUserAgent() })
  if (parameters.projectId) query.set('projectId', parameters.projectId)

  const internal: Internal = {
    clientId: '',
    relayUrl,
    metadata: parameters.metadata,
    storage,
    storageKey: parameters.storageKey ?? 'pairlink-v2',
    state: emptyState(''),
    emitter: createEmitter<SignClientEvents>(),
    relay: createRelayConnection({
      async url() {
        const auth = await signRelayJwt({ seed: internal.state.seed, aud: relayUrl, sub })
        const [base, own] = relayUrl.split('?')
        const search = new URLSearchParams(own)
        search.set('auth', auth)
        for (const [key, value] of query) search.set(key, value)
        search.set('useOnCloseEvent', 'true')
        return `${base}?${search}`
      },
      WebSocket: parameters.WebSocket,
      topics: () => getTopics(internal),
      onMessage: (message) => receive(internal, message),
      onMalformed: () => void internal.stats.dropped++,
      onDuplicate: () => void internal.stats.ignored++,
      onStateChange: (state) => {
        // After the open's own re-sends (this runs inside it): a delete still on its way is not sent twice.
        if (state === 'open') queueMicrotask(() => void flushOutbox(internal))
        internal.emitter.emit('transport', { state })
      },
      onRefused: (error) => internal.emitter.emit('relay_refused', error),
      reconnect: parameters.reconnect,
      requestTimeout: parameters.requestTimeout,
      random: parameters.random,
    }),
    ready: Promise.resolve(),
    stats: { received: 0, dropped: 0, ignored: 0 },
    sent: new Map(),
    approvals: new Map(),
    authResponses: new Map(),
    subscriptions: new Map(),
    incoming: createSerialQueue(),
    saving: createSerialQueue(),
    saveQueued: false,
    expiryTimer: undefined,
    onChange: () => scheduleExpiry(internal),
    onSaved: () => tellTabs(internal),
    flush: () => flushOutbox(internal),
    tabs: undefined,
    closed: false,
  }
  // Open before the state is read: what another tab says meanwhile is taken once it is.
  if (parameters.tabs) openTabs(internal, (message) => receive(internal, message, true))

  internal.ready = (async () => {
    let stored: Partial<StoredState> | undefined
    try {
      const text = await storage?.get(internal.storageKey)
      stored = text ? (JSON.parse(text) as Partial<StoredState>) : undefined
    } catch {}
    const seed =
      typeof stored?.seed === 'string' && /^[0-9a-f]{64}$/.test(stored.seed) ? stored.seed : undefined
    internal.state = { ...emptyState(seed ?? randomHex()), ...(seed ? stored : {}) }
    knowSessions(internal)
    // The identity is kept from the start: the relay knows this client by it.
    if (!seed) save(internal)
    internal.clientId = await getClientId(internal.state.seed)
    expire(internal)
    if (internal.closed) return
    if (getTopics(internal).length > 0) internal.relay.open()
    // A delete made while the relay was down, before the last reload: the peer is still to be told.
    void flushOutbox(internal)
  })()

  const client: SignClient = {
    get clientId() {
      return internal.clientId
    },
    relayUrl,
    metadata: parameters.metadata,
    get ready() {
      return internal.ready
    },
    get transportState() {
      return internal.relay.state
    },
    get stats() {
      return { ...internal.stats, reconnects: internal.relay.reconnects }
    },
    on: internal.emitter.on,
    once: internal.emitter.once,
    off: internal.emitter.off,
    async close() {
      internal.closed = true
      clearTimeout(internal.expiryTimer)
      internal.relay.close()
      const closed = new SignError(SIGN_ERRORS.CLIENT_CLOSED)
      for (const approval of internal.approvals.values()) approval.reject(closed)
      // A settlement still unanswered stays: the restored wallet takes the dapp's answer as the acknowledgement.
      for (const sent of internal.sent.values()) if (sent.method !== 'wc_sessionSettle') sent.reject(closed)
      internal.approvals.clear()
      await internal.saving.idle()
      // After the last write was told (a `disconnect` just before `close` still reaches the other tabs).
      closeTabs(internal)
    },
  }
  setInternal(client, internal)
  return client
}
