import { createHash } from 'node:crypto'
import { addressKey } from '../addressKey.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { createRateLimiter } from '../rateLimiter.js'
import {
  errorFrame,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_LIMIT_EXCEEDED,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  rawId,
  resultFrame,
} from './jsonRpc.js'
import { createMemoryStore, type StoredMessage } from './memoryStore.js'

/** Parameters of {@link createRelay}: every limit has a safe default. */
export type CreateRelayParameters = {
  logger?: Logger | undefined
  /** Longest a message is kept, seconds; a longer `ttl` is cut to it. @default 604800 (7 days) */
  maxTtlSeconds?: number | undefined
  /** Topics one socket may subscribe. @default 1000 */
  maxTopicsPerSocket?: number | undefined
  /** Messages kept per topic (oldest dropped beyond). @default 1000 */
  maxMessagesPerTopic?: number | undefined
  /** Bytes kept per topic (oldest dropped beyond). @default 8388608 */
  maxBytesPerTopic?: number | undefined
  /** Bytes kept over all topics; publishes beyond are refused. @default 268435456 */
  maxTotalBytes?: number | undefined
  /** Requests per second per socket (token bucket; acks are free), 0 = no limit. @default 100 */
  maxRequestsPerSecond?: number | undefined
  /** Bucket size per socket. @default 200 */
  requestBurst?: number | undefined
  /** Requests per second of all the sockets of one address, 0 = no limit. @default 1000 */
  maxRequestsPerSecondPerIp?: number | undefined
  /** Bucket size per address. @default 2000 */
  requestBurstPerIp?: number | undefined
  /** Largest `message`, characters. @default 524288 */
  maxMessageLength?: number | undefined
  /** Expired messages are swept this often, ms. @default 60000 */
  sweepIntervalMs?: number | undefined
}

/** What the relay needs from a socket (the server's `Peer` fits). */
export type RelaySocket = {
  readonly id: string
  readonly remoteAddress: string
  /** Sends a text frame; `false` when the socket is gone. */
  send(text: string): boolean
}

/** One client's socket as the relay sees it. */
export type RelayConnection = {
  receive(text: string, bytes: number): void
  receiveBinary(bytes: number): void
  close(): void
}

/** Counters of the relay, read by tests and metrics. */
export type RelayCounts = {
  connections: number
  subscriptions: number
  publishes: number
  deliveries: number
  acks: number
  expired: number
  dropped: number
  refused: number
  invalid: number
  authRefusals: number
}

/** Return type of {@link createRelay}. */
export type Relay = {
  /** Attaches a socket whose token named `clientId`. */
  connect(socket: RelaySocket, clientId: string): RelayConnection
  counts: RelayCounts
  /** Messages and bytes in the mailbox. */
  mailbox(): { messages: number; bytes: number }
  /** Stops the sweep timer. */
  close(): void
}

/** Default longest `ttl`: 7 days, the longest a v2 dapp may set on a request. */
export const DEFAULT_RELAY_MAX_TTL_SECONDS = 604_800

const TOPIC = /^[0-9a-f]{64}$/
const BATCH_LIMIT = 500

type Conn = {
  socket: RelaySocket
  clientId: string
  address: string
  /** Topic → its subscription id (a sha256, computed once per subscription rather than per push). */
  topics: Map<string, string>
  inflight: Map<number, StoredMessage>
}

class ParamsError extends Error {}
class LimitError extends Error {}

/**
 * The WalletConnect v2 relay (`docs/relay-v2.md`): JSON-RPC 2.0 over text frames, `irn_*` pub/sub with a mailbox
 * kept for each message's `ttl`, `wc_proposeSession` / `wc_approveSession` with their implicit subscriptions, pushes
 * as `irn_subscription` and their acks. One process, memory only.
 *
 * @example
 * const relay = createRelay({ maxTtlSeconds: 86_400 })
 * const connection = relay.connect(socket, clientId) // clientId from verifyRelayJwt
 */
export function createRelay(parameters: CreateRelayParameters = {}): Relay {
  const logger = parameters.logger ?? silentLogger
  const maxTtl = parameters.maxTtlSeconds ?? DEFAULT_RELAY_MAX_TTL_SECONDS
  const maxTopicsPerSocket = parameters.maxTopicsPerSocket ?? 1_000
  const maxMessageLength = parameters.maxMessageLength ?? 524_288
  const counts: RelayCounts = {
    connections: 0,
    subscriptions: 0,
    publishes: 0,
    deliveries: 0,
    acks: 0,
    expired: 0,
    dropped: 0,
    refused: 0,
    invalid: 0,
    authRefusals: 0,
  }
  const store = createMemoryStore(
    {
      maxMessagesPerTopic: parameters.maxMessagesPerTopic ?? 1_000,
      maxBytesPerTopic: parameters.maxBytesPerTopic ?? 8_388_608,
      maxTotalBytes: parameters.maxTotalBytes ?? 268_435_456,
    },
    () => counts.dropped++,
  )
  const perSocket = createRateLimiter({
    perSecond: parameters.maxRequestsPerSecond ?? 100,
    burst: parameters.requestBurst ?? 200,
  })
  const perAddress = createRateLimiter({
    perSecond: parameters.maxRequestsPerSecondPerIp ?? 1_000,
    burst: parameters.requestBurstPerIp ?? 2_000,
  })
  const subscribers = new Map<string, Set<Conn>>()
  let nextPushId = Date.now() * 1_000

  const sweeper = setInterval(() => {
    counts.expired += store.sweep(Date.now())
  }, parameters.sweepIntervalMs ?? 60_000)
  sweeper.unref()

  const push = (conn: Conn, message: StoredMessage) => {
    const id = nextPushId++
    const subscription = conn.topics.get(message.topic) ?? subscriptionId(message.topic, conn.clientId)
    // Written by hand (the hot path): the topic and subscription id are hex, the numbers integers, so only the
    // strings from the client need JSON.stringify; the keys are in the order JSON.stringify of the object gave.
    const attestation =
      message.attestation === undefined ? '' : `,"attestation":${JSON.stringify(message.attestation)}`
    const frame = `{"id":${id},"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"${subscription}","data":{"topic":"${message.topic}","message":${JSON.stringify(message.message)},"publishedAt":${message.publishedAt},"tag":${message.tag}${attestation}}}}`
    if (!conn.socket.send(frame)) return
    conn.inflight.set(id, message)
    counts.deliveries++
  }

  const subscribe = (conn: Conn, topic: string) => {
    const known = conn.topics.get(topic)
    if (known !== undefined) return known
    if (conn.topics.size >= maxTopicsPerSocket) throw new LimitError('Too many topics for this socket')
    const id = subscriptionId(topic, conn.clientId)
    conn.topics.set(topic, id)
    let set = subscribers.get(topic)
    if (!set) {
      set = new Set()
      subscribers.set(topic, set)
    }
    set.add(conn)
    counts.subscriptions++
    return id
  }

  const deliverKept = (conn: Conn, topic: string) => {
    for (const message of store.pending(topic, conn.clientId, Date.now())) push(conn, message)
  }

  const unsubscribe = (conn: Conn, topic: string) => {
    if (!conn.topics.delete(topic)) return
    counts.subscriptions--
    const set = subscribers.get(topic)
    set?.delete(conn)
    if (set?.size === 0) subscribers.delete(topic)
  }

  type Publish = {
    topic: string
    message: string
    ttl: number
    tag: number
    attestation?: string | undefined
  }

  const checkPublish = (value: unknown): Publish => {
    const params = object(value)
    const topic = checkTopic(params.topic)
    const { message, ttl, tag, attestation } = params
    if (typeof message !== 'string' || message.length === 0 || message.length > maxMessageLength)
      throw new ParamsError('message must be a non-empty string')
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1)
      throw new ParamsError('ttl must be a positive integer')
    if (tag !== undefined && (typeof tag !== 'number' || !Number.isInteger(tag) || tag < 0))
      throw new ParamsError('tag must be a non-negative integer')
    if (attestation !== undefined && typeof attestation !== 'string')
      throw new ParamsError('attestation must be a string')
    return { topic, message, ttl, tag: tag ?? 0, attestation }
  }

  const publish = (conn: Conn, publish: Publish) => {
    const now = Date.now()
    const stored: StoredMessage = {
      topic: publish.topic,
      message: publish.message,
      tag: publish.tag,
      publishedAt: now,
      expiresAt: now + Math.min(publish.ttl, maxTtl) * 1_000,
      from: conn.clientId,
      attestation: publish.attestation,
      bytes: publish.message.length + publish.topic.length,
      acked: new Set(),
    }
    if (!store.add(stored)) {
      counts.refused++
      throw new LimitError('Mailbox full, try again later')
    }
    counts.publishes++
    for (const other of subscribers.get(publish.topic) ?? [])
      if (other.clientId !== conn.clientId) push(other, stored)
  }

  // Each handler validates everything before changing anything, answers, then pushes what the answer enables.
  const handlers: Record<string, (conn: Conn, params: unknown) => { result: unknown; after?: () => void }> = {
    irn_subscribe(conn, params) {
      const topic = checkTopic(object(params).topic)
      return { result: subscribe(conn, topic), after: () => deliverKept(conn, topic) }
    },
    irn_batchSubscribe(conn, params) {
      const topics = checkTopics(object(params).topics)
      const ids = topics.map((topic) => subscribe(conn, topic))
      return {
        result: ids,
        after: () => {
          for (const topic of topics) deliverKept(conn, topic)
        },
      }
    },
    irn_unsubscribe(conn, params) {
      unsubscribe(conn, checkTopic(object(params).topic))
      return { result: true }
    },
    irn_batchUnsubscribe(conn, params) {
      const list = object(params).subscriptions
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('subscriptions must be an array')
      const topics = list.map((entry) => checkTopic(object(entry).topic))
      for (const topic of topics) unsubscribe(conn, topic)
      return { result: true }
    },
    irn_publish(conn, params) {
      const checked = checkPublish(params)
      return { result: true, after: () => publish(conn, checked) }
    },
    irn_batchPublish(conn, params) {
      const list = object(params).messages
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('messages must be an array')
      const checked = list.map(checkPublish)
      for (const one of checked) publish(conn, one)
      return { result: true }
    },
    irn_batchFetchMessages(conn, params) {
      const topics = checkTopics(object(params).topics)
      const messages: Record<string, unknown>[] = []
      let hasMore = false
      for (const topic of topics) {
        for (const message of store.pending(topic, conn.clientId, Date.now())) {
          if (messages.length >= BATCH_LIMIT) {
            hasMore = true
            break
          }
          message.acked.add(conn.clientId)
          messages.push({
            topic: message.topic,
            message: message.message,
            publishedAt: message.publishedAt,
            tag: message.tag,
            ...(message.attestation === undefined ? {} : { attestation: message.attestation }),
          })
        }
      }
      return { result: { messages, hasMore } }
    },
    wc_proposeSession(conn, params) {
      const { pairingTopic, sessionProposal, ttl } = object(params)
      const proposal = checkPublish({
        topic: pairingTopic,
        message: sessionProposal,
        ttl: ttl ?? 300,
        tag: 1100,
      })
      subscribe(conn, proposal.topic)
      return { result: true, after: () => publish(conn, proposal) }
    },
    wc_approveSession(conn, params) {
      const p = object(params)
      const ttl = p.ttl ?? 300
      const response = checkPublish({
        topic: p.pairingTopic,
        message: p.sessionProposalResponse,
        ttl,
        tag: 1101,
      })
      const settle = checkPublish({
        topic: p.sessionTopic,
        message: p.sessionSettlementRequest,
        ttl,
        tag: 1102,
      })
      subscribe(conn, settle.topic)
      return {
        result: true,
        after: () => {
          publish(conn, response)
          publish(conn, settle)
        },
      }
    },
  }

  const receive = (conn: Conn, text: string) => {
    let frame: unknown
    try {
      frame = JSON.parse(text)
    } catch {
      counts.invalid++
      conn.socket.send(errorFrame('null', RPC_PARSE_ERROR, 'Parse error'))
      return
    }
    if (!frame || typeof frame !== 'object' || Array.isArray(frame)) {
      counts.invalid++
      conn.socket.send(
        errorFrame('null', RPC_INVALID_REQUEST, 'Invalid request: expected one JSON-RPC 2.0 object'),
      )
      return
    }
    const { id, method, params, jsonrpc } = frame as Record<string, unknown>
    // A response: the ack of a push (or its refusal, which changes nothing).
    if (method === undefined && ('result' in frame || 'error' in frame)) {
      const message = typeof id === 'number' ? conn.inflight.get(id) : undefined
      if (!message) return
      conn.inflight.delete(id as number)
      if ('result' in frame) {
        message.acked.add(conn.clientId)
        counts.acks++
      }
      return
    }
    const validId = typeof id === 'string' || typeof id === 'number'
    const idText = validId ? rawId(text, id) : 'null'
    if (jsonrpc !== '2.0' || !validId || typeof method !== 'string') {
      counts.invalid++
      conn.socket.send(errorFrame(idText, RPC_INVALID_REQUEST, 'Invalid request'))
      return
    }
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
    if (!handler) {
      counts.invalid++
      conn.socket.send(errorFrame(idText, RPC_METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 64)}`))
      return
    }
    if (!perSocket.take(conn.socket.id) || !perAddress.take(conn.address)) {
      counts.refused++
      logger.warn({ socket: conn.socket.id, address: conn.address, method }, 'v2 rate limit exceeded')
      conn.socket.send(errorFrame(idText, RPC_LIMIT_EXCEEDED, 'Rate limit exceeded, try again later'))
      return
    }
    let outcome: { result: unknown; after?: () => void }
    try {
      outcome = handler(conn, params)
    } catch (error) {
      if (error instanceof ParamsError) {
        counts.invalid++
        conn.socket.send(errorFrame(idText, RPC_INVALID_PARAMS, `Invalid params: ${error.message}`))
        return
      }
      if (error instanceof LimitError) {
        counts.refused++
        conn.socket.send(errorFrame(idText, RPC_LIMIT_EXCEEDED, error.message))
        return
      }
      throw error
    }
    if (!outcome.after) {
      conn.socket.send(resultFrame(idText, outcome.result))
      return
    }
    try {
      // The answer goes first for subscribes (the SDK expects the result before the kept messages); a publish
      // refused by the mailbox cap must answer with the error instead, so it runs before the answer.
      if (method === 'irn_subscribe' || method === 'irn_batchSubscribe') {
        conn.socket.send(resultFrame(idText, outcome.result))
        outcome.after()
      } else {
        outcome.after()
        conn.socket.send(resultFrame(idText, outcome.result))
      }
    } catch (error) {
      if (!(error instanceof LimitError)) throw error
      conn.socket.send(errorFrame(idText, RPC_LIMIT_EXCEEDED, error.message))
    }
  }

  return {
    counts,
    mailbox: () => store.size(),
    close: () => clearInterval(sweeper),
    connect(socket, clientId) {
      const conn: Conn = {
        socket,
        clientId,
        address: addressKey(socket.remoteAddress),
        topics: new Map(),
        inflight: new Map(),
      }
      counts.connections++
      return {
        receive: (text) => receive(conn, text),
        receiveBinary: () => {
          counts.invalid++
          socket.send(
            errorFrame('null', RPC_INVALID_REQUEST, 'Invalid request: binary frames are not JSON-RPC'),
          )
        },
        close: () => {
          counts.connections--
          for (const topic of [...conn.topics.keys()]) unsubscribe(conn, topic)
          conn.inflight.clear()
        },
      }
    },
  }
}

/** The subscription id the SDK computes itself: sha256(topic + clientId), hex. */
function subscriptionId(topic: string, clientId: string) {
  return createHash('sha256')
    .update(topic + clientId)
    .digest('hex')
}

function object(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ParamsError('params must be an object')
  return value as Record<string, unknown>
}

function checkTopic(topic: unknown): string {
  if (typeof topic !== 'string' || !TOPIC.test(topic))
    throw new ParamsError('topic must be 64 lowercase hex digits')
  return topic
}

function checkTopics(topics: unknown): string[] {
  if (!Array.isArray(topics) || topics.length > BATCH_LIMIT)
    throw new ParamsError(`topics must be an array of at most ${BATCH_LIMIT}`)
  return topics.map(checkTopic)
}
