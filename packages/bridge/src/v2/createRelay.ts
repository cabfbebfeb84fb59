import { createHash } from 'node:crypto'
import { addressKey } from '../addressKey.js'
import { DEFAULT_MAX_QUEUED_BYTES_PER_IP } from '../constants.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { createRateLimiter } from '../rateLimiter.js'
import {
  errorFrame,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_LIMIT_EXCEEDED,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  rawId,
  resultFrame,
} from './jsonRpc.js'
import { createMemoryRelayStore } from './memoryStore.js'
import {
  BATCH_LIMIT,
  checkPublish,
  checkTopic,
  checkTopics,
  LimitError,
  object,
  ParamsError,
  type Publish,
} from './params.js'
import type { RelayStore, StoredMessage, StoreRefusal, SweepResult } from './store.js'

/** Parameters of {@link createRelay}: every limit has a safe default. */
export type CreateRelayParameters = {
  logger?: Logger | undefined
  /** Where messages are kept: one node in memory, or shared by several (`createRedisRelayStore`). @default memory */
  store?: RelayStore | undefined
  /** Longest a message is kept, seconds; a longer `ttl` is cut to it. @default 604800 (7 days) */
  maxTtlSeconds?: number | undefined
  /** Topics one socket may subscribe. @default 1000 */
  maxTopicsPerSocket?: number | undefined
  /** Messages kept per topic (oldest dropped beyond). @default 1000 */
  maxMessagesPerTopic?: number | undefined
  /** Bytes kept per topic (oldest dropped beyond). @default 8388608 */
  maxBytesPerTopic?: number | undefined
  /** Bytes one address (its publishers' address key) may have kept over all topics; beyond, -32000. @default 16777216 */
  maxQueuedBytesPerIp?: number | undefined
  /** Bytes kept over all topics; publishes beyond are refused, nothing kept is evicted. @default 268435456 */
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
  /** Expired messages are swept this often, ms (in slices, between deliveries). @default 60000 */
  sweepIntervalMs?: number | undefined
  /**
   * Project ids this relay serves: an upgrade whose `projectId` is missing or not listed is refused with 403. Without
   * it every `projectId` (or none) is accepted as is.
   */
  projectIds?: readonly string[] | undefined
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
  /** Store operations that failed (Redis away): answered with -32603 when a request waited on them. */
  storeErrors: number
}

/** Return type of {@link createRelay}. */
export type Relay = {
  /** Attaches a socket whose token named `clientId`. */
  connect(socket: RelaySocket, clientId: string): RelayConnection
  /** Whether an upgrade naming `projectId` (`null` when it names none) may connect. */
  admitsProject(projectId: string | null): boolean
  counts: RelayCounts
  /** Messages and bytes in the mailbox (a shared store's figures as last read). */
  mailbox(): { messages: number; bytes: number }
  /** Starts the store (connects to Redis); resolves once it can serve. Already done for the memory store. */
  start(): Promise<void>
  /** Whether the store can serve (`GET /health`). */
  isHealthy(): Promise<boolean>
  /** Stops the sweep and closes the store (a shared store keeps its messages). */
  close(): Promise<void>
}

/** Default longest `ttl`: 7 days, the longest a v2 dapp may set on a request. */
export const DEFAULT_RELAY_MAX_TTL_SECONDS = 604_800

// Pushes awaiting their ack per socket; beyond, the oldest is forgotten (it is pushed again on the next subscribe).
const MAX_INFLIGHT = 1_000
// Bytes of frames a socket may have waiting behind a request that waits on the store; beyond, frames are dropped.
const MAX_WAITING_BYTES = 1_048_576

type Conn = {
  socket: RelaySocket
  clientId: string
  address: string
  /** Topic → its subscription id (a sha256, computed once per subscription rather than per push). */
  topics: Map<string, string>
  inflight: Map<number, StoredMessage>
  /** A request waits on the store: later frames wait here, so answers stay in request order. */
  waiting: string[] | undefined
  waitingBytes: number
  /** Topics whose kept messages are being read from a shared store: live pushes wait so order stays publish order. */
  loading: Map<string, StoredMessage[]> | undefined
  closed: boolean
}

type Outcome = { result: unknown; after?: (() => void) | undefined }
type Handler = (conn: Conn, params: unknown) => Outcome | Promise<Outcome>

const TRUE: Outcome = { result: true }
const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise

const REFUSALS: Record<StoreRefusal, string> = {
  topic: 'Message too large for the mailbox',
  address: 'Too many bytes kept for this address, try again later',
  total: 'Mailbox full, try again later',
}

/**
 * The WalletConnect v2 relay (`docs/relay-v2.md`): JSON-RPC 2.0 over text frames, `irn_*` pub/sub with a mailbox
 * kept for each message's `ttl`, `wc_proposeSession` / `wc_approveSession` with their implicit subscriptions, pushes
 * as `irn_subscription` and their acks. One node in memory by default; several share a Redis store.
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
    storeErrors: 0,
  }
  const store = parameters.store ?? createMemoryRelayStore()
  const perSocket = createRateLimiter({
    perSecond: parameters.maxRequestsPerSecond ?? 100,
    burst: parameters.requestBurst ?? 200,
  })
  const perAddress = createRateLimiter({
    perSecond: parameters.maxRequestsPerSecondPerIp ?? 1_000,
    burst: parameters.requestBurstPerIp ?? 2_000,
  })
  const conns = new Set<Conn>()
  const subscribers = new Map<string, Set<Conn>>()
  let nextPushId = Date.now() * 1_000

  const failed = (error: unknown) => {
    counts.storeErrors++
    logger.warn(
      { store: store.name, error: error instanceof Error ? error.message : String(error) },
      'v2 store error',
    )
  }

  const push = (conn: Conn, message: StoredMessage) => {
    const id = nextPushId++
    const subscription = conn.topics.get(message.topic) ?? subscriptionId(message.topic, conn.clientId)
    // Written by hand (the hot path): the topic and subscription id are hex, the numbers integers, so only the
    // strings from the client need JSON.stringify; the keys are in the order JSON.stringify of the object gave.
    const attestation =
      message.attestation === undefined ? '' : `,"attestation":${JSON.stringify(message.attestation)}`
    const frame = `{"id":${id},"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"${subscription}","data":{"topic":"${message.topic}","message":${JSON.stringify(message.message)},"publishedAt":${message.publishedAt},"tag":${message.tag}${attestation}}}}`
    if (!conn.socket.send(frame)) return
    if (conn.inflight.size >= MAX_INFLIGHT) conn.inflight.delete(conn.inflight.keys().next().value as number)
    conn.inflight.set(id, message)
    counts.deliveries++
  }

  // A live push waits while the topic's kept messages are read (shared stores only), then goes after them.
  const pushLive = (conn: Conn, message: StoredMessage) => {
    const buffered = conn.loading?.get(message.topic)
    if (buffered) buffered.push(message)
    else push(conn, message)
  }

  const fanOut = (message: StoredMessage) => {
    const set = subscribers.get(message.topic)
    if (set) for (const other of set) if (other.clientId !== message.from) pushLive(other, message)
  }

  // Subscribes locally; a promise when the store registers this node for the topic's fan-out.
  const subscribe = (conn: Conn, topic: string): void | Promise<void> => {
    if (conn.topics.has(topic)) return
    if (conn.topics.size >= maxTopicsPerSocket) throw new LimitError('Too many topics for this socket')
    conn.topics.set(topic, subscriptionId(topic, conn.clientId))
    counts.subscriptions++
    const set = subscribers.get(topic)
    if (set) {
      set.add(conn)
      return
    }
    subscribers.set(topic, new Set([conn]))
    return store.watch(topic)
  }

  const unsubscribe = (conn: Conn, topic: string) => {
    if (!conn.topics.delete(topic)) return
    counts.subscriptions--
    const set = subscribers.get(topic)
    set?.delete(conn)
    if (set?.size === 0) {
      subscribers.delete(topic)
      store.unwatch(topic)
    }
  }

  const startLoading = (conn: Conn, topic: string) => {
    conn.loading ??= new Map()
    conn.loading.set(topic, [])
  }
  const stopLoading = (conn: Conn, topic: string) => {
    conn.loading?.delete(topic)
    if (conn.loading?.size === 0) conn.loading = undefined
  }
  // Pushes what was read, then the live pushes that arrived meanwhile and were not in it.
  const finishLoading = (conn: Conn, topic: string, kept: readonly StoredMessage[]) => {
    const live = conn.loading?.get(topic) ?? []
    stopLoading(conn, topic)
    if (conn.closed || !conn.topics.has(topic)) return
    for (const message of kept) push(conn, message)
    const seen = new Set(kept.map((message) => message.id))
    for (const message of live) if (!seen.has(message.id)) push(conn, message)
  }

  const finishAll = (conn: Conn, topics: readonly string[], lists: readonly (readonly StoredMessage[])[]) => {
    for (let i = 0; i < topics.length; i++) finishLoading(conn, topics[i] as string, lists[i] ?? [])
  }

  // Subscribes `topics`, answers, then pushes their kept messages; with a shared store both are read first.
  const subscribeAll = (
    conn: Conn,
    topics: readonly string[],
    result: unknown,
  ): Outcome | Promise<Outcome> => {
    const now = Date.now()
    let watching: Promise<void>[] | undefined
    for (const topic of topics) {
      const registered = subscribe(conn, topic)
      if (registered) {
        watching ??= []
        watching.push(registered)
      }
    }
    const kept = topics.map((topic) => store.pending(topic, conn.clientId, now))
    if (!watching && !kept.some(isPromise)) {
      const lists = kept as (readonly StoredMessage[])[]
      return {
        result,
        after: () => {
          for (const list of lists) for (const message of list) push(conn, message)
        },
      }
    }
    for (const topic of topics) startLoading(conn, topic)
    return Promise.all([Promise.all(kept), ...(watching ?? [])]).then(
      ([lists]) => ({
        result,
        after: () => finishAll(conn, topics, lists),
      }),
      (error: unknown) => {
        for (const topic of topics) stopLoading(conn, topic)
        throw error
      },
    )
  }

  const published = (conn: Conn, stored: StoredMessage, refused: StoreRefusal | undefined) => {
    if (refused) {
      counts.refused++
      throw new LimitError(REFUSALS[refused])
    }
    counts.publishes++
    const set = subscribers.get(stored.topic)
    if (set) for (const other of set) if (other.clientId !== conn.clientId) pushLive(other, stored)
  }

  // Keeps the message (and hands it to the other nodes), then pushes it to this node's subscribers.
  const publish = (conn: Conn, publish: Publish): void | Promise<void> => {
    const now = Date.now()
    const stored: StoredMessage = {
      topic: publish.topic,
      message: publish.message,
      tag: publish.tag,
      publishedAt: now,
      expiresAt: now + Math.min(publish.ttl, maxTtl) * 1_000,
      from: conn.clientId,
      owner: conn.address,
      attestation: publish.attestation,
      bytes: publish.message.length + publish.topic.length,
      acked: new Set(),
      id: undefined,
    }
    const refused = store.add(stored)
    if (isPromise(refused)) return refused.then((value) => published(conn, stored, value))
    published(conn, stored, refused)
  }

  // In order; with a shared store all are sent at once (one pipeline) and a refusal answers once all are settled.
  const publishAll = (conn: Conn, list: readonly Publish[]): void | Promise<void> => {
    let pending: Promise<void>[] | undefined
    for (const one of list) {
      const done = publish(conn, one)
      if (done) {
        pending ??= []
        pending.push(done)
      }
    }
    if (!pending) return
    return Promise.allSettled(pending).then((results) => {
      for (const result of results) if (result.status === 'rejected') throw result.reason
    })
  }

  const answerAfter = (done: void | Promise<void>): Outcome | Promise<Outcome> =>
    done ? done.then(() => TRUE) : TRUE

  const handlers: Record<string, Handler> = {
    irn_subscribe(conn, params) {
      const topic = checkTopic(object(params).topic)
      return subscribeAll(conn, [topic], subscriptionId(topic, conn.clientId))
    },
    irn_batchSubscribe(conn, params) {
      const topics = checkTopics(object(params).topics)
      return subscribeAll(
        conn,
        topics,
        topics.map((topic) => subscriptionId(topic, conn.clientId)),
      )
    },
    irn_unsubscribe(conn, params) {
      unsubscribe(conn, checkTopic(object(params).topic))
      return TRUE
    },
    irn_batchUnsubscribe(conn, params) {
      const list = object(params).subscriptions
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('subscriptions must be an array')
      const topics = list.map((entry) => checkTopic(object(entry).topic))
      for (const topic of topics) unsubscribe(conn, topic)
      return TRUE
    },
    irn_publish(conn, params) {
      return answerAfter(publish(conn, checkPublish(params, maxMessageLength)))
    },
    irn_batchPublish(conn, params) {
      const list = object(params).messages
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('messages must be an array')
      const checked = list.map((entry) => checkPublish(entry, maxMessageLength))
      return answerAfter(publishAll(conn, checked))
    },
    irn_batchFetchMessages(conn, params) {
      const topics = checkTopics(object(params).topics)
      const now = Date.now()
      const kept = topics.map((topic) => store.pending(topic, conn.clientId, now))
      const answer = (lists: readonly (readonly StoredMessage[])[]): Outcome => {
        const messages: Record<string, unknown>[] = []
        let hasMore = false
        for (const message of lists.flat()) {
          if (messages.length >= BATCH_LIMIT) {
            hasMore = true
            break
          }
          store.ack(message, conn.clientId)
          messages.push({
            topic: message.topic,
            message: message.message,
            publishedAt: message.publishedAt,
            tag: message.tag,
            ...(message.attestation === undefined ? {} : { attestation: message.attestation }),
          })
        }
        return { result: { messages, hasMore } }
      }
      return kept.some(isPromise) ? Promise.all(kept).then(answer) : answer(kept as StoredMessage[][])
    },
    wc_proposeSession(conn, params) {
      const { pairingTopic, sessionProposal, ttl } = object(params)
      const proposal = checkPublish(
        { topic: pairingTopic, message: sessionProposal, ttl: ttl ?? 300, tag: 1100 },
        maxMessageLength,
      )
      const registered = subscribe(conn, proposal.topic)
      const done = publish(conn, proposal)
      return registered ? Promise.all([registered, done]).then(() => TRUE) : answerAfter(done)
    },
    wc_approveSession(conn, params) {
      const p = object(params)
      const ttl = p.ttl ?? 300
      const response = checkPublish(
        { topic: p.pairingTopic, message: p.sessionProposalResponse, ttl, tag: 1101 },
        maxMessageLength,
      )
      const settle = checkPublish(
        { topic: p.sessionTopic, message: p.sessionSettlementRequest, ttl, tag: 1102 },
        maxMessageLength,
      )
      const registered = subscribe(conn, settle.topic)
      const done = publishAll(conn, [response, settle])
      return registered ? Promise.all([registered, done]).then(() => TRUE) : answerAfter(done)
    },
  }

  const answer = (conn: Conn, idText: string, outcome: Outcome) => {
    conn.socket.send(resultFrame(idText, outcome.result))
    outcome.after?.()
  }

  const answerError = (conn: Conn, idText: string, error: unknown) => {
    if (error instanceof ParamsError) {
      counts.invalid++
      conn.socket.send(errorFrame(idText, RPC_INVALID_PARAMS, `Invalid params: ${error.message}`))
    } else if (error instanceof LimitError) {
      counts.refused++
      conn.socket.send(errorFrame(idText, RPC_LIMIT_EXCEEDED, error.message))
    } else {
      // The store failed (Redis away): the SDK retries subscribes and re-sends publishes on its heartbeat.
      failed(error)
      conn.socket.send(errorFrame(idText, RPC_INTERNAL_ERROR, 'Relay storage unavailable, try again later'))
    }
  }

  const resume = (conn: Conn) => {
    const waiting = conn.waiting
    conn.waiting = undefined
    conn.waitingBytes = 0
    if (!waiting) return
    for (let i = 0; i < waiting.length; i++) {
      if (conn.closed) return
      handle(conn, waiting[i] as string)
      if (conn.waiting) {
        // Waiting again: what was not handled yet goes before what arrived meanwhile.
        const rest = waiting.slice(i + 1)
        conn.waiting = rest
        conn.waitingBytes = rest.reduce((sum, text) => sum + text.length, 0)
        return
      }
    }
  }

  const receive = (conn: Conn, text: string) => {
    if (!conn.waiting) {
      handle(conn, text)
      return
    }
    if (conn.waitingBytes + text.length > MAX_WAITING_BYTES) {
      counts.refused++
      return
    }
    conn.waiting.push(text)
    conn.waitingBytes += text.length
  }

  const handle = (conn: Conn, text: string) => {
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
        store.ack(message, conn.clientId)
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
    let outcome: Outcome | Promise<Outcome>
    try {
      outcome = handler(conn, params)
    } catch (error) {
      answerError(conn, idText, error)
      return
    }
    if (!isPromise(outcome)) {
      answer(conn, idText, outcome)
      return
    }
    conn.waiting = []
    outcome
      .then(
        (value) => answer(conn, idText, value),
        (error: unknown) => answerError(conn, idText, error),
      )
      .then(() => resume(conn))
      .catch(failed)
  }

  // A shared store is back after losing its connection or its data: push to every socket here what is kept for it.
  let redelivering = false
  let redeliverAgain = false
  const redeliver = async () => {
    for (const conn of [...conns]) {
      const topics = [...conn.topics.keys()].filter((topic) => !conn.loading?.has(topic))
      if (conn.closed || topics.length === 0) continue
      for (const topic of topics) startLoading(conn, topic)
      const now = Date.now()
      try {
        const lists = await Promise.all(topics.map((topic) => store.pending(topic, conn.clientId, now)))
        finishAll(conn, topics, lists)
      } catch (error) {
        for (const topic of topics) stopLoading(conn, topic)
        throw error
      }
    }
  }

  const projectIds = parameters.projectIds ? new Set(parameters.projectIds) : undefined
  let started: Promise<void> | undefined
  const start = () => {
    started ??= Promise.resolve(
      store.start({
        limits: {
          maxMessagesPerTopic: parameters.maxMessagesPerTopic ?? 1_000,
          maxBytesPerTopic: parameters.maxBytesPerTopic ?? 8_388_608,
          maxBytesPerAddress: parameters.maxQueuedBytesPerIp ?? DEFAULT_MAX_QUEUED_BYTES_PER_IP,
          maxTotalBytes: parameters.maxTotalBytes ?? 268_435_456,
        },
        logger,
        dropped: (count) => {
          counts.dropped += count
        },
        expired: (count) => {
          counts.expired += count
        },
        failed,
        deliver: fanOut,
        recovered: () => {
          if (redelivering) {
            redeliverAgain = true
            return
          }
          redelivering = true
          const run = (): Promise<void> =>
            redeliver()
              .catch(failed)
              .then(() => {
                if (!redeliverAgain) return
                redeliverAgain = false
                return run()
              })
          run().finally(() => {
            redelivering = false
          })
        },
      }),
    )
    return started
  }
  // The memory store starts at once: a relay without a shared store needs no start().
  if (store.name === 'memory') start().catch(failed)

  // Housekeeping in slices with the event loop free between them: a delivery never waits for a whole sweep.
  let sweeping = false
  const sweepSlice = () => {
    let result: SweepResult | Promise<SweepResult>
    try {
      result = store.sweep(Date.now())
    } catch (error) {
      failed(error)
      sweeping = false
      return
    }
    if (isPromise(result))
      result.then(swept, (error: unknown) => {
        failed(error)
        sweeping = false
      })
    else swept(result)
  }
  const swept = (result: SweepResult) => {
    counts.expired += result.expired
    if (result.done) sweeping = false
    else setImmediate(sweepSlice)
  }
  const sweeper = setInterval(() => {
    if (sweeping || !started) return
    sweeping = true
    sweepSlice()
  }, parameters.sweepIntervalMs ?? 60_000)
  sweeper.unref()

  return {
    counts,
    admitsProject: (projectId) => !projectIds || (projectId !== null && projectIds.has(projectId)),
    mailbox: () => store.size(),
    start,
    isHealthy: () => store.isHealthy(),
    async close() {
      clearInterval(sweeper)
      await store.close()
    },
    connect(socket, clientId) {
      const conn: Conn = {
        socket,
        clientId,
        address: addressKey(socket.remoteAddress),
        topics: new Map(),
        inflight: new Map(),
        waiting: undefined,
        waitingBytes: 0,
        loading: undefined,
        closed: false,
      }
      conns.add(conn)
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
          if (conn.closed) return
          conn.closed = true
          conns.delete(conn)
          counts.connections--
          for (const topic of [...conn.topics.keys()]) unsubscribe(conn, topic)
          conn.inflight.clear()
          conn.waiting = undefined
          conn.loading = undefined
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
