import {
  createTopic,
  DEEPLINK_CHOICE_STORAGE_KEY,
  type Emitter,
  encrypt,
  payloadId,
  type SerialQueue,
  type SessionUpdate,
  type SocketMessage,
  type StoredSession,
} from '@pairlink/protocol'
import { getBrowserHost } from './browser.js'
import type { Client, ClientEvents, ClientStats, ConnectReturnType, ModalAdapter } from './createClient.js'
import { formatStoredSession, pickStoredSession, type SessionStorage, type TabChannel } from './storage.js'
import {
  createTransport,
  getWebSocketUrl,
  type ReconnectOptions,
  type Transport,
  type WebSocketConstructor,
} from './transport.js'

/** A request waiting for the peer's response. */
type Pending = {
  method: string
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
}

/** A promise with its settle functions (the dapp's pending handshake). */
export type Deferred<value> = {
  promise: Promise<value>
  resolve: (value: value) => void
  reject: (error: unknown) => void
}

/** The client's private state, shared by `createClient`, the actions and the receiver. */
export type Internal = StoredSession & {
  networkId: number
  rpcUrl: string
  /** The `wc:` URI of the dapp's pending handshake (never logged). */
  uri: string | undefined
  /** Wallet role before the session request arrived: the handshake topic must stay subscribed. */
  awaitingRequest: boolean
  handshake: Deferred<ConnectReturnType> | undefined
  /** The person closed the modal of the pending handshake: a wallet approving it is told no (its session killed). */
  handshakeAbandoned: boolean
  pending: Map<number, Pending>
  emitter: Emitter<ClientEvents>
  storage: SessionStorage | undefined
  storageKey: string
  modal: ModalAdapter | undefined
  modalOptions: unknown
  signingMethods: Set<string>
  redirect: ((href: string) => void) | undefined
  stats: ClientStats
  ready: Promise<void>
  /** Incoming envelopes are handled one after the other, in arrival order. */
  incoming: SerialQueue
  /** Outgoing envelopes are encrypted and sent one after the other, in call order. */
  outgoing: SerialQueue
  transport: Transport | undefined
  transportBridge: string
  /** An attempt to reach the bridge failed and none has succeeded since: the modal says so. */
  bridgeUnreachable: boolean
  WebSocket: WebSocketConstructor | undefined
  reconnect: ReconnectOptions | undefined
  random: (() => number) | undefined
  ack: boolean
  /** `relayed`: the frame came from another tab, which did not claim it (it is not passed on again). */
  onFrame: (internal: Internal, message: SocketMessage, relayed?: boolean) => void
  /** A dapp whose storage its other tabs share: the channel to them (see `tabs.ts`) until `close`. */
  tabs: TabChannel | undefined
}

/** A message between the tabs of a dapp that share one session (`tabs.ts` handles them). */
type TabMessage =
  /** The session, as stored (v1 layout): a tab connected, or the wallet updated it. */
  | { session: string }
  /** The session with this client id ended, with this `disconnect` message. */
  | { clientId: string; message: string }
  /** A frame for the session that no request of the posting tab waited for: maybe one of the others did. */
  | { frame: SocketMessage }

const internals = new WeakMap<object, Internal>()

/** Links a client object to its private state. */
export function setInternal(client: object, internal: Internal): void {
  internals.set(client, internal)
}

/** The private state of a client made by `createClient`. */
export function getInternal(client: Client): Internal {
  const internal = internals.get(client)
  if (!internal) throw new TypeError('Not a Pairlink client')
  return internal
}

/** The client's own topic, made on first use (reference §4.1). */
export function getClientId(internal: Internal): string {
  if (!internal.clientId) internal.clientId = createTopic()
  return internal.clientId
}

/** The transport to the session's bridge, created on first use (and again when the bridge changed). */
export function getTransport(internal: Internal): Transport {
  if (internal.transport && internal.transportBridge === internal.bridge) return internal.transport
  internal.transport?.close()
  internal.transportBridge = internal.bridge
  const transport = createTransport({
    url: getWebSocketUrl(internal.bridge, { host: getBrowserHost() }),
    WebSocket: internal.WebSocket,
    reconnect: internal.reconnect,
    random: internal.random,
    subscriptions: () => {
      const topics = [getClientId(internal)]
      // Until the session request arrived, the wallet's only way in is the handshake topic (v1 did not renew it).
      if (internal.awaitingRequest && internal.handshakeTopic) topics.unshift(internal.handshakeTopic)
      return topics
    },
    onMessage: (message) => internal.onFrame(internal, message),
    onMalformed: () => void internal.stats.dropped++,
    onStateChange: (state) => {
      if (state !== 'connecting') setBridgeUnreachable(internal, false)
      internal.emitter.emit('transport', { state })
    },
    onAttemptFailed: () => setBridgeUnreachable(internal, true),
  })
  internal.transport = transport
  return transport
}

/** Records whether the bridge can be reached and tells the modal (its optional `setStatus`) when that changes. */
function setBridgeUnreachable(internal: Internal, unreachable: boolean): void {
  if (internal.bridgeUnreachable === unreachable) return
  internal.bridgeUnreachable = unreachable
  internal.modal?.setStatus?.(unreachable ? 'unreachable' : 'ready')
}

/**
 * Encrypts a JSON-RPC payload with the session key and publishes it on `topic`. Publishes go out in call order:
 * WebCrypto may finish two encryptions in either order, and an approval must reach the peer before an update.
 */
export function publish(internal: Internal, topic: string, payload: object, silent: boolean): Promise<void> {
  const key = internal.key
  return internal.outgoing.add(async () => {
    const envelope = await encrypt(payload, key)
    getTransport(internal).send({ topic, type: 'pub', payload: JSON.stringify(envelope), silent })
  })
}

/**
 * Tells the peer `peerId` its session is over: `wc_sessionUpdate` with `approved: false` (reference §4.3), on which
 * it emits `disconnect`. Used to end a session (`killSession`) and to refuse an approval that came too late.
 */
export function publishKill(internal: Internal, peerId: string): Promise<void> {
  const kill: SessionUpdate = {
    id: payloadId(),
    jsonrpc: '2.0',
    method: 'wc_sessionUpdate',
    params: [{ approved: false, chainId: null, networkId: null, accounts: null }],
  }
  return publish(internal, peerId, kill, true)
}

/** Posts to the other tabs of the dapp that share this session (none unless the storage is shared). */
export function tellTabs(internal: Internal, message: TabMessage): void {
  // `close` forgets the channel it closes: posting never meets a closed one.
  internal.tabs?.postMessage(message)
}

/**
 * The session is connected (the wallet approved, or another tab connected it): the modal closes, `connect` is
 * emitted and a pending `connect()` resolves.
 */
export function announceConnected(internal: Internal): void {
  const handshake = internal.handshake
  internal.handshake = undefined
  internal.uri = undefined
  internal.modal?.close()
  const connected = {
    peerId: internal.peerId,
    peerMeta: internal.peerMeta,
    chainId: internal.chainId,
    accounts: internal.accounts,
  }
  internal.emitter.emit('connect', connected)
  handshake?.resolve(connected)
}

/** The session in v1's stored layout, or `undefined` when there is no connected session. */
export function getSession(internal: Internal): StoredSession | undefined {
  return internal.connected ? pickStoredSession(internal) : undefined
}

/** Writes the connected session to storage (v1 writes on connect and on each update; never while pending). */
export async function persist(internal: Internal): Promise<void> {
  const session = getSession(internal)
  if (!session || !internal.storage) return
  const text = formatStoredSession(session)
  tellTabs(internal, { session: text })
  try {
    await internal.storage.set(internal.storageKey, text)
  } catch {
    // A full or unavailable storage costs the restore after a reload, not the live session.
  }
}

/** Restores a stored session into the client state. */
export function restore(internal: Internal, session: StoredSession): void {
  internal.connected = session.connected === true
  internal.accounts = Array.isArray(session.accounts) ? session.accounts : []
  internal.chainId = typeof session.chainId === 'number' ? session.chainId : 0
  internal.bridge = session.bridge
  internal.key = session.key
  internal.clientId = session.clientId
  internal.clientMeta = session.clientMeta ?? internal.clientMeta
  internal.peerId = session.peerId ?? ''
  internal.peerMeta = session.peerMeta ?? null
  internal.handshakeId = session.handshakeId ?? 0
  internal.handshakeTopic = session.handshakeTopic ?? ''
}

/**
 * Ends the session locally (v1's `_handleSessionDisconnect`, reference §4.5): emits `disconnect`, forgets the peer,
 * removes the stored session, tells the other tabs and closes the socket. Unlike v1, pending requests and a pending
 * connect are rejected instead of left hanging. `fromTab`: another tab ended it, and did the storage and telling.
 */
export function endSession(internal: Internal, message: string, error: Error, fromTab = false): void {
  if (internal.connected && !fromTab) tellTabs(internal, { clientId: internal.clientId, message })
  if (!internal.connected) {
    internal.modal?.close()
    void Promise.resolve(internal.storage?.remove(DEEPLINK_CHOICE_STORAGE_KEY)).catch(() => {})
  }
  internal.connected = false
  internal.handshakeId = 0
  internal.handshakeTopic = ''
  internal.peerId = ''
  internal.peerMeta = null
  internal.accounts = []
  internal.chainId = 0
  internal.uri = undefined
  internal.awaitingRequest = false
  const handshake = internal.handshake
  internal.handshake = undefined
  const pending = [...internal.pending.values()]
  internal.pending.clear()
  if (internal.storage && !fromTab)
    void Promise.resolve(internal.storage.remove(internal.storageKey)).catch(() => {})
  internal.emitter.emit('disconnect', { message })
  handshake?.reject(error)
  for (const request of pending) request.reject(error)
  // A kill published while the bridge was unreachable is still queued: give it a few seconds to get through.
  internal.transport?.close({ flushWithin: KILL_DELIVERY_MS })
}

/** How long a closed session keeps trying to deliver its last queued frames (its kill). */
const KILL_DELIVERY_MS = 5_000

/** A promise with its settle functions. */
export function createDeferred<value>(): Deferred<value> {
  let resolve!: (value: value) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<value>((res, rej) => {
    resolve = res
    reject = rej
  })
  // Nobody may be waiting (createSession without connect): a rejection then must not crash the process.
  promise.catch(() => {})
  return { promise, resolve, reject }
}
