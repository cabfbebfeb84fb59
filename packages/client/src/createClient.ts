import {
  type ClientMeta,
  type JsonRpcRequest,
  parseUri,
  SESSION_STORAGE_KEY,
  SIGNING_METHODS,
  type StoredSession,
  V1_ERRORS,
} from '@pairlink/protocol'
import { approveRequest } from './actions/approveRequest.js'
import { approveSession } from './actions/approveSession.js'
import { close } from './actions/close.js'
import { connect } from './actions/connect.js'
import { createSession } from './actions/createSession.js'
import { killSession } from './actions/killSession.js'
import { rejectRequest } from './actions/rejectRequest.js'
import { rejectSession } from './actions/rejectSession.js'
import { request } from './actions/request.js'
import { sendTransaction } from './actions/sendTransaction.js'
import { signMessage } from './actions/signMessage.js'
import { signPersonalMessage } from './actions/signPersonalMessage.js'
import { signTransaction } from './actions/signTransaction.js'
import { signTypedData } from './actions/signTypedData.js'
import { updateSession } from './actions/updateSession.js'
import { getWindowMeta, redirectToWallet } from './browser.js'
import { createEmitter, type Emitter } from './emitter.js'
import { InvalidClientOptionsError } from './errors.js'
import { handleFrame } from './receive.js'
import { getSession, getTransport, type Internal, restore, setInternal } from './session.js'
import {
  createLocalStorage,
  createMemoryStorage,
  parseStoredSession,
  type SessionStorage,
} from './storage.js'
import type { ReconnectOptions, TransportState, WebSocketConstructor } from './transport.js'

/** A QR-code modal with the shape of v1's `@walletconnect/qrcode-modal` (`@pairlink/modal/open` fits too). */
export type ModalAdapter = {
  open(uri: string, onUserClose: () => void, options?: unknown): void
  close(): void
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
  /** Where the session is kept. @default `localStorage` in browsers (v1 layout), memory in Node */
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
   * @default on mobile browsers `location.href = href`, off elsewhere
   */
  redirect?: ((href: string) => void) | false | undefined
  /** Acknowledge every received frame as v1 did. Bridges ignore acks. @default false */
  ack?: boolean | undefined
  /** Source of reconnect jitter, for tests. @default Math.random */
  random?: (() => number) | undefined
}

/** A session client, dapp and wallet role in one object: state getters, actions as methods, events. */
export type Client = {
  readonly connected: boolean
  readonly accounts: string[]
  readonly chainId: number
  readonly peerId: string
  readonly peerMeta: ClientMeta | null
  readonly clientId: string
  readonly bridge: string
  /** The dapp's pending `wc:` URI, after `createSession` until the wallet answers. */
  readonly uri: string | undefined
  /** The connected session in v1's stored layout. */
  readonly session: StoredSession | undefined
  readonly transportState: TransportState
  readonly stats: Readonly<ClientStats>
  /** Settles when the stored session was read (immediately for sync storage such as `localStorage`). */
  readonly ready: Promise<void>
  on: Emitter<ClientEvents>['on']
  once: Emitter<ClientEvents>['once']
  off: Emitter<ClientEvents>['off']
  connect: OmitClient<typeof connect>
  createSession: OmitClient<typeof createSession>
  request: OmitClient<typeof request>
  sendTransaction: OmitClient<typeof sendTransaction>
  signTransaction: OmitClient<typeof signTransaction>
  signMessage: OmitClient<typeof signMessage>
  signPersonalMessage: OmitClient<typeof signPersonalMessage>
  signTypedData: OmitClient<typeof signTypedData>
  approveSession: OmitClient<typeof approveSession>
  rejectSession: OmitClient<typeof rejectSession>
  approveRequest: OmitClient<typeof approveRequest>
  rejectRequest: OmitClient<typeof rejectRequest>
  updateSession: OmitClient<typeof updateSession>
  killSession: OmitClient<typeof killSession>
  close: OmitClient<typeof close>
}

type ActionName =
  | 'connect'
  | 'createSession'
  | 'request'
  | 'sendTransaction'
  | 'signTransaction'
  | 'signMessage'
  | 'signPersonalMessage'
  | 'signTypedData'
  | 'approveSession'
  | 'rejectSession'
  | 'approveRequest'
  | 'rejectRequest'
  | 'updateSession'
  | 'killSession'
  | 'close'

type OmitClient<action> = action extends (client: Client, ...rest: infer rest) => infer result
  ? (...args: rest) => result
  : never

/**
 * Creates a session client (reference §4): a dapp with `bridge` (then `connect`), a wallet with `uri` (then
 * `approveSession` on `session_request`); a stored session restores without a new scan.
 *
 * @example
 * const client = createClient({ bridge: 'https://bridge.example', modal: QRCodeModal, clientMeta })
 * const { accounts } = await client.connect({ chainId: 1 })
 * const signature = await client.signPersonalMessage(['Hello', accounts[0]])
 *
 * @example
 * const wallet = createClient({ uri, clientMeta })
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
    incoming: Promise.resolve(),
    outgoing: Promise.resolve(),
    transport: undefined,
    transportBridge: '',
    WebSocket: parameters.WebSocket,
    reconnect: parameters.reconnect,
    random: parameters.random,
    ack: parameters.ack ?? false,
    onFrame: handleFrame,
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
  } as Client
  setInternal(client, internal)
  const actions: Pick<Client, ActionName> = {
    connect: (...args) => connect(client, ...args),
    createSession: (...args) => createSession(client, ...args),
    request: (...args) => request(client, ...args),
    sendTransaction: (...args) => sendTransaction(client, ...args),
    signTransaction: (...args) => signTransaction(client, ...args),
    signMessage: (...args) => signMessage(client, ...args),
    signPersonalMessage: (...args) => signPersonalMessage(client, ...args),
    signTypedData: (...args) => signTypedData(client, ...args),
    approveSession: (...args) => approveSession(client, ...args),
    rejectSession: (...args) => rejectSession(client, ...args),
    approveRequest: (...args) => approveRequest(client, ...args),
    rejectRequest: (...args) => rejectRequest(client, ...args),
    updateSession: (...args) => updateSession(client, ...args),
    killSession: (...args) => killSession(client, ...args),
    close: (...args) => close(client, ...args),
  }
  Object.assign(client, actions)
  return client
}
