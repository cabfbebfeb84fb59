import {
  type ClientMeta,
  createEmitter,
  createSerialQueue,
  type Emitter,
  type JsonRpcRequest,
  parseUri,
  SESSION_STORAGE_KEY,
  SIGNING_METHODS,
  type StoredSession,
  V1_ERRORS,
} from '@pairlink/protocol'
import { close } from './actions/close.js'
import { type KillSessionParameters, killSession } from './actions/killSession.js'
import { getWindowMeta, redirectToWallet } from './browser.js'
import { InvalidClientOptionsError } from './errors.js'
import { withExtend } from './extend.js'
import { handleFrame } from './receive.js'
import { getSession, getTransport, type Internal, restore, setInternal } from './session.js'
import {
  createLocalStorage,
  createMemoryStorage,
  parseStoredSession,
  type SessionStorage,
} from './storage.js'
import { handleTabMessage } from './tabs.js'
import type { ReconnectOptions, TransportState, WebSocketConstructor } from './transport.js'

/** A QR-code modal with the shape of v1's `@walletconnect/qrcode-modal` (`@pairlink/modal/open` fits too). */
export type ModalAdapter = {
  open(uri: string, onUserClose: () => void, options?: unknown): void
  close(): void
  /**
   * Optional (v1's modal has none): told `'unreachable'` when an attempt to reach the bridge failed and the client
   * retries, `'ready'` when the socket opens. Right after `open` when the bridge is already unreachable; it may
   * also be called while no modal is open, which it should ignore.
   */
  setStatus?(status: 'ready' | 'unreachable'): void
}

/** The connected session as `connect` resolves and the `connect` event carries it. */
export type ConnectReturnType = {
  peerId: string
  peerMeta: ClientMeta | null
  chainId: number
  accounts: string[]
}

/** Every client event and its one payload (reference §4.4). */
export type ClientEvents = {
  /** The dapp created a session request: show this URI. */
  display_uri: { uri: string }
  /** The person closed the modal. */
  modal_closed: Record<string, never>
  /** A wallet received a session request. */
  session_request: { id: number; peerId: string; peerMeta: ClientMeta | null; chainId: number | null }
  /** The session was approved (both sides). */
  connect: ConnectReturnType
  /** Either side updated the session (the sender emits it locally too). */
  session_update: { chainId: number; accounts: string[] }
  /** Killed by either side, or rejected. */
  disconnect: { message: string }
  /** The peer sent a request to answer with `approveRequest` / `rejectRequest`. */
  call_request: JsonRpcRequest
  /** The bridge socket changed state. */
  transport: { state: TransportState }
}

/** Counters of what the client received. */
export type ClientStats = {
  /** Frames on the client's own topics. */
  received: number
  /** Frames or envelopes that were malformed, failed to decrypt, or were not JSON-RPC. */
  dropped: number
  /** Frames for other topics, replays and responses nobody waits for. */
  ignored: number
  /** Times the socket was re-opened after being lost. */
  reconnects: number
}

/** Parameters of {@link createClient}. One of `bridge`, `uri` or `session` is required (v1's rule). */
export type CreateClientParameters = {
  /** Dapp role: the bridge base URL (`http`, `https`, `ws`, `wss`). */
  bridge?: string | undefined
  /** Wallet role: the dapp's `wc:` URI. An invalid one throws the exact v1 text. */
  uri?: string | undefined
  /** A session to restore (v1's stored layout). */
  session?: StoredSession | undefined
  /**
   * Where the session is kept. A dapp whose storage is shared by its tabs (`localStorage`, which comes with a channel
   * between them) shares the session with them: connect, updates and disconnect reach every tab.
   * @default `localStorage` in browsers (v1 layout), memory in Node
   */
  storage?: SessionStorage | false | undefined
  /** @default 'walletconnect' */
  storageKey?: string | undefined
  /** What this side announces to the peer. @default the page's metadata in browsers, `null` in Node */
  clientMeta?: ClientMeta | null | undefined
  /** The QR-code modal `connect` opens. */
  modal?: ModalAdapter | undefined
  /** Passed to `modal.open` as its third argument. */
  modalOptions?: unknown
  /** @default globalThis.WebSocket, else the `ws` package */
  WebSocket?: WebSocketConstructor | undefined
  /** Reconnect backoff. @default { minDelay: 500, maxDelay: 30000, connectTimeout: 10000 } */
  reconnect?: ReconnectOptions | undefined
  /** Methods that, besides v1's signing methods, are published with `silent: false` (push to the wallet). */
  signingMethods?: readonly string[] | undefined
  /**
   * Navigates to the chosen wallet after a signing request is published (reference §6.6), `false` to turn off.
   * @default on mobile browsers `location.href = href` for a native deep link (v1), never for an `http(s)` link
   *   (that would replace the dapp's tab); off elsewhere
   */
  redirect?: ((href: string) => void) | false | undefined
  /** Acknowledge every received frame as v1 did. Bridges ignore acks. @default false */
  ack?: boolean | undefined
  /** Source of reconnect jitter, for tests. @default Math.random */
  random?: (() => number) | undefined
}

/** The members every client has, whatever its role: session state, events, and the actions both sides share. */
export type ClientBase = {
  /** Whether a session is approved and not yet ended. */
  readonly connected: boolean
  /** The session's accounts, as the wallet approved or last updated them; `[]` when disconnected. */
  readonly accounts: string[]
  /** The session's chain id; `0` when disconnected. */
  readonly chainId: number
  /** The peer's client id (its own topic); `''` before a session request or approval arrived. */
  readonly peerId: string
  /** What the peer announced about itself (name, url, icons), `null` until it did. */
  readonly peerMeta: ClientMeta | null
  /** This client's own topic; made on first use, so `''` until a session is created, joined or restored. */
  readonly clientId: string
  /** The bridge base URL the session uses (from `bridge`, the `wc:` URI or the restored session). */
  readonly bridge: string
  /** The dapp's pending `wc:` URI, after `createSession` until the wallet answers. Never log it: it holds the key. */
  readonly uri: string | undefined
  /** The connected session in v1's stored layout, `undefined` when disconnected. Holds the key: never log it. */
  readonly session: StoredSession | undefined
  /** The state of the bridge socket: `'connecting'`, `'open'` or `'closed'`. */
  readonly transportState: TransportState
  /** Counters of what the client received (a copy). */
  readonly stats: Readonly<ClientStats>
  /** Settles when the stored session was read (immediately for sync storage such as `localStorage`). */
  readonly ready: Promise<void>
  /** Listens to an event; returns the function that stops listening. */
  on: Emitter<ClientEvents>['on']
  /** Listens to the next occurrence of an event only; returns the function that stops listening. */
  once: Emitter<ClientEvents>['once']
  /** Stops a listener added with `on` or `once`. */
  off: Emitter<ClientEvents>['off']
  /**
   * Either side ends the session (see {@link killSession}). In the bare client because both roles need it and a
   * restored session may be killed before any role's actions are added.
   */
  killSession: (parameters?: KillSessionParameters) => ReturnType<typeof killSession>
  /** Closes the bridge socket and keeps the stored session (see {@link close}); both roles shut down this way. */
  close: () => ReturnType<typeof close>
}

/** Members an extension may not replace (as viem protects its base client). Not exported from the package. */
export type ProtectedKey = keyof ClientBase | 'extend'

/**
 * A session client: {@link ClientBase} plus the members of each `extend(fn)` applied so far.
 *
 * @example
 * const dapp: Client<DappActions> = createClient({ bridge }).extend(dappActions)
 */
export type Client<extended = unknown> = ClientBase &
  extended & {
    /**
     * Returns a new client with the members `fn(client)` returns merged in (chainable, as viem's `extend`). The
     * members of {@link ClientBase} and `extend` cannot be replaced; the state stays shared with this client.
     *
     * @example
     * const dapp = createClient({ bridge }).extend(dappActions)
     */
    extend: <const next extends { [key in ProtectedKey]?: undefined } & object>(
      fn: (client: Client<extended>) => next,
    ) => Client<extended & next>
  }

/**
 * Creates a bare session client (reference §4): state, events, `killSession`, `close` and `extend`. A dapp passes
 * `bridge` and extends it with {@link dappActions}; a wallet passes the dapp's `uri` and extends it with
 * {@link walletActions}; a stored session restores without a new scan. The stand-alone actions take it as is.
 *
 * @example
 * const dapp = createClient({ bridge: 'https://bridge.example', modal: QRCodeModal, clientMeta }).extend(dappActions)
 * const { accounts } = await dapp.connect({ chainId: 1 })
 * const signature = await dapp.signPersonalMessage(['Hello', accounts[0]])
 *
 * @example
 * const wallet = createClient({ uri, clientMeta }).extend(walletActions)
 * wallet.on('session_request', () => wallet.approveSession({ chainId: 1, accounts: [address] }))
 */
export function createClient(parameters: CreateClientParameters): Client {
  const { bridge, uri, session, storageKey = SESSION_STORAGE_KEY } = parameters
  if (!bridge && !uri && !session) throw new InvalidClientOptionsError(V1_ERRORS.MISSING_REQUIRED)
  const parsed = uri === undefined ? undefined : parseUri(uri)
  const storage =
    parameters.storage === false
      ? undefined
      : (parameters.storage ??
        (typeof globalThis.localStorage === 'object' && globalThis.localStorage
          ? createLocalStorage()
          : createMemoryStorage()))
  const redirect = parameters.redirect === false ? undefined : (parameters.redirect ?? redirectToWallet)

  const internal: Internal = {
    connected: false,
    accounts: [],
    chainId: 0,
    networkId: 0,
    rpcUrl: '',
    bridge: bridge ?? '',
    key: '',
    clientId: '',
    clientMeta: parameters.clientMeta === undefined ? getWindowMeta() : parameters.clientMeta,
    peerId: '',
    peerMeta: null,
    handshakeId: 0,
    handshakeTopic: '',
    uri: undefined,
    awaitingRequest: false,
    handshakeAbandoned: false,
    handshake: undefined,
    pending: new Map(),
    emitter: createEmitter<ClientEvents>(),
    storage,
    storageKey,
    modal: parameters.modal,
    modalOptions: parameters.modalOptions,
    signingMethods: new Set([...SIGNING_METHODS, ...(parameters.signingMethods ?? [])]),
    redirect,
    stats: { received: 0, dropped: 0, ignored: 0, reconnects: 0 },
    ready: Promise.resolve(),
    incoming: createSerialQueue(),
    outgoing: createSerialQueue(),
    transport: undefined,
    transportBridge: '',
    bridgeUnreachable: false,
    WebSocket: parameters.WebSocket,
    reconnect: parameters.reconnect,
    random: parameters.random,
    ack: parameters.ack ?? false,
    onFrame: handleFrame,
    tabs: undefined,
  }

  if (parsed) {
    // A URI is a new pairing: it wins over any stored session (which approveSession then overwrites).
    internal.bridge = parsed.bridge
    internal.key = parsed.key
    internal.handshakeTopic = parsed.topic
    internal.awaitingRequest = true
    getTransport(internal).open()
  } else if (session) {
    restore(internal, session)
    if (internal.connected) getTransport(internal).open()
  } else if (storage) {
    const load = (text: string | null | undefined) => {
      const stored = parseStoredSession(text)
      // Only connected sessions are restored: v1 stores nothing while a handshake is pending.
      if (stored?.connected && !internal.connected && !internal.handshake) {
        restore(internal, stored)
        getTransport(internal).open()
      }
    }
    let text: ReturnType<SessionStorage['get']>
    try {
      text = storage.get(storageKey)
    } catch {
      text = undefined
    }
    // Sync storage (localStorage, memory) restores at once, as v1 does; async storage settles `ready`.
    if (text instanceof Promise) internal.ready = text.then(load, () => {})
    else load(text)
    // Only a dapp follows its other tabs (a wallet has `uri` or `session`): a wallet's tabs would each prompt.
    internal.tabs = storage.channel?.(storageKey, (message) => handleTabMessage(internal, message))
  }

  const client = {
    get connected() {
      return internal.connected
    },
    get accounts() {
      return internal.accounts
    },
    get chainId() {
      return internal.chainId
    },
    get peerId() {
      return internal.peerId
    },
    get peerMeta() {
      return internal.peerMeta
    },
    get clientId() {
      return internal.clientId
    },
    get bridge() {
      return internal.bridge
    },
    get uri() {
      return internal.uri
    },
    get session() {
      return getSession(internal)
    },
    get transportState() {
      return internal.transport?.state ?? 'closed'
    },
    get stats() {
      return { ...internal.stats, reconnects: internal.transport?.reconnects ?? 0 }
    },
    get ready() {
      return internal.ready
    },
    on: internal.emitter.on,
    once: internal.emitter.once,
    off: internal.emitter.off,
    killSession: (parameters?: KillSessionParameters) => killSession(client, parameters),
    close: () => close(client),
  } as Client
  setInternal(client, internal)
  return withExtend(client, internal)
}
