import { type Emitter, payloadId, type SerialQueue } from '@pairlink/protocol'
import { encryptEnvelope } from '@pairlink/protocol/v2'
import { createStatusReporter, type OnRequestStatus, type RequestStatus } from '../requestStatus.js'
import type { SessionStorage } from '../storage.js'
import type { VerifyCacao } from './checkCacaos.js'
import type { SignClient, SignClientEvents, SignClientStats } from './createSignClient.js'
import { SIGN_ERRORS, SignError } from './errors.js'
import type { RelayConnection } from './relay.js'
import type { Tabs } from './tabs.js'
import type {
  AuthenticateRequest,
  ErrorResponse,
  Metadata,
  Pairing,
  PendingAuthRequest,
  PendingRequest,
  Proposal,
  Session,
} from './types.js'

/** What a client keeps in its storage, under one key, as JSON. Holds keys: never log it. */
export type StoredState = {
  /** The Ed25519 seed of the client's relay identity (`did:key`), hex: the SDK's `client_ed25519_seed`. */
  seed: string
  /** Topic → its symmetric key; X25519 public key → its private key. */
  keys: Record<string, string>
  pairings: Record<string, Pairing>
  /**
   * Proposals this client (a dapp) sent and that no wallet settled yet; `sessionTopic` once a wallet answered;
   * `abandoned` once the dapp gave up on them (`abandon`): a wallet settling one is refused.
   */
  proposed: Record<string, Proposal & { sessionTopic?: string | undefined; abandoned?: true | undefined }>
  /** Proposals this client (a wallet) received and has not answered. */
  proposals: Record<string, Proposal>
  sessions: Record<string, Session>
  /** Requests this client (a wallet) received and has not answered, by id: a reload does not lose them. */
  requests: Record<string, PendingRequest>
  /**
   * Sealed messages for the relay, kept until it took them (see `outbox.ts`): a `disconnect`'s delete by its topic, a
   * dapp's request (`request:<id>`) and a wallet's answer (`answer:<id>`), so a relay outage or a reload loses none.
   */
  outbox: Record<string, Outgoing>
  /** One-click auth requests this client (a wallet) received and has not answered, by id. */
  authRequests: Record<string, PendingAuthRequest>
  /** One-click auth requests this client (a dapp) sent and that no wallet answered yet, by id. */
  authenticating: Record<string, Authenticating>
}

/** A dapp's `authenticate` waiting: its key (in `keys`), the topic the answer comes on, its fallback proposal. */
type Authenticating = {
  publicKey: string
  /** `sha256(publicKey)`: the wallet answers there in a type 1 envelope. */
  responseTopic: string
  pairingTopic: string
  /** The fallback `wc_sessionPropose` (in `proposed`), for a wallet without one-click auth. */
  proposalId: number
  request: AuthenticateRequest
  /** The dapp gave up on it (`abandon`): a wallet answering it has the session it made deleted. */
  abandoned?: true | undefined
}

type Approval = {
  resolve: (session: Session) => void
  reject: (error: unknown) => void
  verifyCacao?: VerifyCacao | undefined
}

/** The `irn_publish` params of one message, sealed with its topic's key. */
export type Sealed = { topic: string; message: string; ttl: number; tag: number; prompt: boolean }

/** A sealed message in the outbox: sent until `expiry` (seconds); `id` is the request of ours that waits for it. */
export type Outgoing = Sealed & { expiry: number; id?: number }

/** A request this side sent and whose answer it waits for (in memory only: a reload forgets it). */
type Sent = {
  topic: string
  method: string
  /** Called before `resolve`/`reject` when the peer's answer settles it (not an expiry or a session's end). */
  answered?: (() => void) | undefined
  /** Called when the relay took the request from the outbox (answered its `irn_publish`). */
  relayed?: (() => void) | undefined
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
}

/** The client's private state, shared by `createSignClient`, the actions and the receiver. */
export type Internal = {
  /** The relay identity (`did:key`) of `state.seed`, `''` until `ready`. */
  clientId: string
  relayUrl: string
  metadata: Metadata
  storage: SessionStorage | undefined
  storageKey: string
  state: StoredState
  emitter: Emitter<SignClientEvents>
  relay: RelayConnection
  ready: Promise<void>
  stats: Omit<SignClientStats, 'reconnects'>
  sent: Map<number, Sent>
  /**
   * The dapp's `connect` calls waiting for their session, by proposal id, with the check of the CACAOs its
   * `requests.authentication` may be answered with (see `proposalRequests.ts`).
   */
  approvals: Map<number, Approval>
  /** The dapp's `authenticate` calls waiting for the wallet's answer on their response topic, by request id. */
  authResponses: Map<number, (response: { result: unknown } | { error: ErrorResponse }) => Promise<void>>
  /** Subscription ids the relay gave, by topic (sent back with `irn_unsubscribe`). */
  subscriptions: Map<string, string>
  /** Received envelopes are handled one after the other, in arrival order. */
  incoming: SerialQueue
  /** Writes of the state to storage, one after the other. */
  saving: SerialQueue
  /** A write is queued and has not started: a change now needs no write of its own. */
  saveQueued: boolean
  expiryTimer: ReturnType<typeof setTimeout> | undefined
  /** Re-arms the expiry timer after a change (set by `createSignClient`, see `expiry.ts`). */
  onChange: () => void
  /** The state was written: the other tabs hear what changed (set by `createSignClient`, see `tabs.ts`). */
  onSaved: () => void
  /** Sends what waits in the outbox (set by `createSignClient`: `flushOutbox` of `outbox.ts`). */
  flush: () => Promise<void>
  /** Sharing sessions with the other tabs on the same storage (`tabs: true`), until `close`. */
  tabs: Tabs | undefined
  closed: boolean
}

const internals = new WeakMap<object, Internal>()

export const setInternal = (client: object, internal: Internal) => void internals.set(client, internal)

/** The private state of a client made by `createSignClient`. */
export function getInternal(client: SignClient): Internal {
  const internal = internals.get(client)
  if (!internal) throw new TypeError('Not a client made by createSignClient')
  return internal
}

/** Publish options per Sign method (the SDK's `ENGINE_RPC_OPTS` and `PAIRING_RPC_OPTS`, relay-v2.md §4). */
const RPC_OPTS: Record<string, [tag: number, ttl: number, prompt: boolean]> = {
  wc_pairingDelete: [1000, 86_400, false],
  wc_pairingPing: [1002, 30, false],
  wc_sessionPropose: [1100, 300, true],
  wc_sessionSettle: [1102, 300, false],
  wc_sessionUpdate: [1104, 86_400, false],
  wc_sessionExtend: [1106, 86_400, false],
  wc_sessionRequest: [1108, 900, true],
  wc_sessionEvent: [1110, 300, true],
  wc_sessionDelete: [1112, 86_400, false],
  wc_sessionPing: [1114, 86_400, false],
  wc_sessionAuthenticate: [1116, 3600, true],
}
/** A proposal's rejection has a tag of its own (the SDK's `wc_sessionPropose.reject`). */
export const PROPOSE_REJECT_TAG = 1120

/**
 * Every topic the client follows: pairings, sessions, the session topics of answered proposals, and the response
 * topics of one-click auth requests.
 */
export function getTopics(internal: Internal): string[] {
  const { pairings, sessions, proposed, authenticating } = internal.state
  const pending = Object.values(proposed).flatMap((p) => (p.sessionTopic ? [p.sessionTopic] : []))
  const responses = Object.values(authenticating).map((a) => a.responseTopic)
  return [...new Set([...Object.keys(pairings), ...Object.keys(sessions), ...pending, ...responses])]
}

/**
 * Writes the state to storage, in order; changes made while a write is queued ride with it (several changes, one
 * write of the latest state).
 */
export function save(internal: Internal): void {
  internal.onChange()
  const { storage } = internal
  if (!storage || internal.saveQueued) return
  internal.saveQueued = true
  void internal.saving.add(async () => {
    internal.saveQueued = false
    try {
      await storage.set(internal.storageKey, JSON.stringify(internal.state))
    } catch {
      // Storage that refuses (quota, private mode) costs the restore after a reload, not the session.
    }
    // Once it is in the storage they share: a tab that loads meanwhile finds it there.
    internal.onSaved()
  })
}

/** The session of `topic`, or a {@link SignError} (`ERR_SESSION_UNKNOWN`). */
export function getSessionOrThrow(internal: Internal, topic: string): Session {
  const session = internal.state.sessions[topic]
  if (!session) throw new SignError(SIGN_ERRORS.NO_SESSION)
  return session
}

type PublishOptions = { response?: boolean; tag?: number; ttl?: number }

/**
 * Keeps a sealed message in the stored outbox under `key` until the relay takes it (`outbox.ts`) or `expiry` passes
 * (seconds since the epoch; default: its ttl from now); `id` names the request that waits for its answer. The caller
 * saves the state.
 */
export function enqueue(
  internal: Internal,
  key: string,
  sealed: Sealed,
  expiry: number = expiryIn(sealed.ttl),
  id?: number,
): void {
  internal.state.outbox[key] = id === undefined ? { ...sealed, expiry } : { ...sealed, expiry, id }
}

/** Seals a JSON-RPC payload for `topic` with the tag and ttl of `method` (`ttl` overrides): the `irn_publish` params. */
export function seal(
  internal: Internal,
  topic: string,
  payload: object,
  method: string,
  options: PublishOptions = {},
): Sealed {
  const symKey = internal.state.keys[topic]
  if (!symKey) throw new SignError(SIGN_ERRORS.NO_SESSION)
  const [tag, ttl, prompt] = RPC_OPTS[method] ?? [0, 86_400, false]
  return {
    topic,
    message: encryptEnvelope({ symKey, message: JSON.stringify(payload) }),
    ttl: options.ttl ?? ttl,
    // The answer's tag is the request's plus one; only requests may prompt the peer.
    tag: options.tag ?? (options.response && tag ? tag + 1 : tag),
    prompt: !options.response && prompt,
  }
}

/** Seals a JSON-RPC payload for `topic` (see {@link seal}) and publishes it. */
export async function publish(
  internal: Internal,
  topic: string,
  payload: object,
  method: string,
  options: PublishOptions = {},
): Promise<void> {
  await internal.relay.request('irn_publish', seal(internal, topic, payload, method, options))
}

/**
 * Sends a request to the peer on `topic` and resolves with its answer's result, or rejects with a {@link SignError}
 * carrying the peer's error. `ttl` (seconds) overrides the method's message ttl; after `timeout` seconds the call
 * rejects with `ERR_REQUEST_EXPIRED`. With `outbox`, the request waits in the stored outbox while the relay cannot be
 * reached (see `outbox.ts`) rather than failing with the relay's time-out: it goes when the socket is back.
 * `onStatus` hears its steps: `sent`, `relayed` (the relay kept it), then `answered`, `expired` or `failed`.
 */
export async function sendRequest<result = unknown>(
  internal: Internal,
  topic: string,
  method: string,
  params: unknown,
  options: {
    ttl?: number | undefined
    timeout: number
    outbox?: boolean | undefined
    onStatus?: OnRequestStatus | undefined
  },
): Promise<result> {
  const id = payloadId()
  const key = `request:${id}`
  const report = createStatusReporter(options.onStatus, id, method, Date.now() + options.timeout * 1000)
  let outcome: RequestStatus = 'failed'
  const answer = new Promise<result>((resolve, reject) => {
    const timer = setTimeout(() => {
      internal.sent.delete(id)
      dropOutgoing(internal, key)
      report('expired')
      reject(new SignError(SIGN_ERRORS.REQUEST_EXPIRED))
    }, options.timeout * 1000)
    const settle = (fn: () => void) => {
      clearTimeout(timer)
      internal.sent.delete(id)
      dropOutgoing(internal, key)
      report(outcome)
      fn()
    }
    internal.sent.set(id, {
      topic,
      method,
      answered: () => {
        outcome = 'answered'
      },
      relayed: () => report('relayed'),
      resolve: (value) => settle(() => resolve(value as result)),
      reject: (error) => settle(() => reject(error)),
    })
  })
  const payload = { id, jsonrpc: '2.0', method, params }
  const ttl = options.ttl === undefined ? {} : { ttl: options.ttl }
  report('sent')
  try {
    // Resolves on the relay's answer to irn_publish: the relay keeps the message (relay-v2.md §3).
    if (!options.outbox) {
      await publish(internal, topic, payload, method, ttl)
      report('relayed')
    } else {
      const sealed = seal(internal, topic, payload, method, ttl)
      enqueue(internal, key, sealed, expiryIn(options.timeout), id)
      save(internal)
      void internal.flush()
    }
  } catch (error) {
    internal.sent.get(id)?.reject(error)
  }
  return answer
}

/** Forgets what waits in the outbox under `key` (its request was answered, expired or ended before it went). */
function dropOutgoing(internal: Internal, key: string): void {
  if (!internal.state.outbox[key]) return
  delete internal.state.outbox[key]
  save(internal)
}

/** Sends `method`'s success answer. */
export const sendResult = (internal: Internal, topic: string, id: number, method: string, result: unknown) =>
  publish(internal, topic, { id, jsonrpc: '2.0', result }, method, { response: true })

/** Sends `method`'s error answer. */
export const sendError = (
  internal: Internal,
  topic: string,
  id: number,
  method: string,
  error: ErrorResponse,
  tag?: number,
) =>
  publish(internal, topic, { id, jsonrpc: '2.0', error }, method, {
    response: true,
    ...(tag === undefined ? {} : { tag }),
  })

/** Stops following `topic` and forgets its key. */
export function dropTopic(internal: Internal, topic: string): void {
  delete internal.state.keys[topic]
  const id = internal.subscriptions.get(topic)
  internal.subscriptions.delete(topic)
  if (internal.relay.state === 'closed') return
  internal.relay.request('irn_unsubscribe', id ? { topic, id } : { topic }).catch(() => {})
}

/** Subscribes to `topic` and keeps the id the relay gives for it. */
export async function subscribe(internal: Internal, topic: string): Promise<void> {
  const id = await internal.relay.request('irn_subscribe', { topic })
  if (typeof id === 'string') internal.subscriptions.set(topic, id)
}

/** Ends a session locally: its key, its topic, its requests in flight; emits nothing. */
export function deleteSession(internal: Internal, topic: string, reason: ErrorResponse): void {
  const session = internal.state.sessions[topic]
  if (!session) return
  delete internal.state.sessions[topic]
  delete internal.state.keys[session.self.publicKey]
  dropTopic(internal, topic)
  for (const sent of internal.sent.values()) if (sent.topic === topic) sent.reject(new SignError(reason))
  for (const request of Object.values(internal.state.requests))
    if (request.topic === topic) delete internal.state.requests[request.id]
  save(internal)
}

/** Seconds since the epoch, `seconds` from now (the SDK's `calcExpiry`). */
export const expiryIn = (seconds: number) => Math.floor(Date.now() / 1000) + seconds
