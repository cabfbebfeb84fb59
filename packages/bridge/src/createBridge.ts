import { parseSocketMessage } from '@pairlink/protocol'
import { addressKey } from './addressKey.js'
import type { Backend, BackendContext } from './backends/backend.js'
import { createMemoryBackend } from './backends/memory.js'
import { byteLength } from './byteLength.js'
import { CLOSE_POLICY_VIOLATION } from './constants.js'
import { WebhookRateLimitedError } from './errors.js'
import { type Logger, silentLogger } from './logger.js'
import { type BridgeMetrics, createBridgeMetrics } from './metrics.js'
import { createRateLimiter } from './rateLimiter.js'
import { type BridgeOptions, resolveBridgeOptions } from './resolveBridgeOptions.js'
import { createWebhookNotifier, type WebhookParameters } from './webhooks.js'

/** The one thing the core needs of a WebSocket: the adapter (`server.ts`) wraps a `ws` socket in it. */
export type Socket = {
  /** Unique per bridge, for logs. */
  readonly id: string
  /** The peer's address (after `trustProxy`), for logs and per-address limits. */
  readonly remoteAddress: string
  /** Writes a text frame; `false` when the socket cannot take it (closed, or too far behind). */
  send(text: string): boolean
  /** Closes the socket with a WebSocket close code. */
  close(code: number, reason: string): void
}

/** What the core returns for each socket: the adapter feeds it the socket's frames. */
export type Connection = {
  /** Handles one text frame; `bytes` is its UTF-8 size (the adapter has it for free). */
  receive(text: string, bytes?: number): void
  /** Counts a binary frame, which v1 never sends, and ignores it. */
  receiveBinary(bytes: number): void
  /** The socket closed: forgets its subscriptions. */
  close(): void
}

/** Parameters of {@link createBridge}. Every limit has a safe default. */
export type CreateBridgeParameters = {
  /** Where queues, webhooks and cross-node fan-out live. @default createMemoryBackend() */
  backend?: Backend | undefined
  /** Where the bridge logs (pino-compatible; the CLI passes pino). Logs never contain payloads. @default a silent logger */
  logger?: Logger | undefined
  /** Time-to-live of a queued message in seconds (fractions allowed). @default 86400 */
  ttlSeconds?: number | undefined
  /** Messages queued per topic. @default 100 */
  maxQueueLength?: number | undefined
  /** Bytes queued per topic. @default 8388608 */
  maxQueuedBytes?: number | undefined
  /** Largest frame in bytes; larger ones close the socket with 1009. @default 1048576 */
  maxFrameBytes?: number | undefined
  /** Topics one socket may subscribe. @default 32 */
  maxTopicsPerSocket?: number | undefined
  /** Longest topic. @default 128 */
  maxTopicLength?: number | undefined
  /** Open sockets per remote address; `0` disables the limit. @default 256 */
  maxConnectionsPerIp?: number | undefined
  /** Frames per second per socket (token bucket rate); `0` disables the limit. @default 100 */
  maxMessagesPerSecond?: number | undefined
  /** Token bucket size. @default 200 */
  messageBurst?: number | undefined
  /** Frames per second all the sockets of one address may send together; `0` disables the limit. @default 1000 */
  maxMessagesPerSecondPerIp?: number | undefined
  /** Token bucket size of one address. @default 2000 */
  messageBurstPerIp?: number | undefined
  /** Bytes one address may have queued over all topics; more messages from it are refused. @default 16777216 */
  maxQueuedBytesPerIp?: number | undefined
  /** `POST /subscribe` calls per minute per address (burst of the same size); `0` disables the limit. @default 60 */
  maxWebhookRegistrationsPerMinutePerIp?: number | undefined
  /**
   * Bytes per second read from all the sockets of one address together (IPv6: its /64), v1 and v2; beyond, the
   * server stops reading from them until the address is back within it. `0` disables the limit. @default 4194304
   */
  maxReadBytesPerSecondPerIp?: number | undefined
  /** Bytes one address may send at once before `maxReadBytesPerSecondPerIp` applies. @default 1048576 */
  readBurstBytesPerIp?: number | undefined
  /** Bytes waiting to be written to a socket before it is dropped as dead. @default 16777216 */
  maxBufferedBytes?: number | undefined
  /**
   * Bytes waiting to be written to all the sockets of one address (IPv6: its /64), v1 and v2 together; a write that
   * would pass it drops that socket as dead. @default 33554432
   */
  maxBufferedBytesPerIp?: number | undefined
  /** Interval between server pings in milliseconds; a socket silent for a whole interval is terminated. @default 10000 */
  pingIntervalMs?: number | undefined
  /** Webhooks kept per topic. @default 8 */
  maxWebhooksPerTopic?: number | undefined
  /** How long a webhook is kept, in seconds. @default 2592000 */
  webhookTtlSeconds?: number | undefined
  /** Webhook calls: time-out, concurrency, allow-list of private hosts. */
  webhooks?: WebhookParameters | undefined
  /** Use the last `X-Forwarded-For` address as the remote address (behind a trusted proxy). @default false */
  trustProxy?: boolean | undefined
  /** Export prom-client's process metrics too. @default false */
  processMetrics?: boolean | undefined
}

/** Return type of {@link createBridge}. */
export type Bridge = {
  readonly options: BridgeOptions
  readonly backend: Backend
  readonly logger: Logger
  readonly metrics: BridgeMetrics
  /** Connects the backend; call once before serving (the server helpers do). */
  start(): Promise<void>
  /** Registers a socket and returns the handle its frames go through. */
  connect(socket: Socket): Connection
  /**
   * Registers a push webhook (`POST /subscribe`) for the caller at `remoteAddress`; throws `InvalidWebhookError`,
   * `WebhookRefusedError` or `WebhookRateLimitedError`.
   */
  subscribeWebhook(topic: string, url: string, remoteAddress?: string): Promise<void>
  /** Whether the backend is reachable (`GET /health`). */
  isHealthy(): Promise<boolean>
  /** Stops the backend; sockets are the adapter's to close first. */
  close(): Promise<void>
}

type SocketState = Connection & {
  socket: Socket
  /** {@link addressKey} of the socket's address: what per-address budgets count by. */
  key: string
  // An array, not a Set: a v1 socket has one or two topics, and 10 000 idle sockets should cost little memory.
  topics: string[]
  tokens: number
  refilledAt: number
  closed: boolean
  /** Over a rate limit: closing, further frames are ignored. */
  refused: boolean
  /** Topics whose queue is being drained: live frames wait here so they never overtake queued ones. */
  draining: Map<string, { waiting: number; frames: string[] }> | undefined
}

/**
 * Creates the bridge core: WalletConnect v1 pub/sub (reference §3.3) over plain text frames, with no I/O of its own.
 * `sub` subscribes and drains the topic's queue; `pub` goes to every other live subscriber, or to the queue;
 * `ack` and unknown types are ignored; frames are relayed unchanged.
 *
 * @example
 * const bridge = createBridge({ ttlSeconds: 3600 })
 * await bridge.start()
 * const connection = bridge.connect({ id: '1', remoteAddress: '127.0.0.1', send: (text) => true, close() {} })
 * connection.receive('{"topic":"t","type":"sub","payload":"","silent":true}')
 */
export function createBridge(parameters: CreateBridgeParameters = {}): Bridge {
  const options = resolveBridgeOptions(parameters)
  const logger = parameters.logger ?? silentLogger
  const backend = parameters.backend ?? createMemoryBackend()
  const metrics = createBridgeMetrics({ processMetrics: parameters.processMetrics })
  const { counts } = metrics
  const notifier = createWebhookNotifier({ ...parameters.webhooks, counts, logger })
  const subscribers = new Map<string, Set<SocketState>>()
  const rate = options.maxMessagesPerSecond / 1000
  const burst = options.messageBurst
  const perAddress = createRateLimiter({
    perSecond: options.maxMessagesPerSecondPerIp,
    burst: options.messageBurstPerIp,
  })
  const registrations = createRateLimiter({
    perSecond: options.maxWebhookRegistrationsPerMinutePerIp / 60,
    burst: options.maxWebhookRegistrationsPerMinutePerIp,
  })

  const backendError = (error: unknown) => {
    counts.backendErrors++
    logger.warn({ backend: backend.name, error: errorMessage(error) }, 'backend operation failed')
  }
  // Backend calls answer synchronously (memory) or with a promise (Redis): only the latter needs a catch.
  const settle = <T>(result: T | Promise<T>, then: (value: T) => void) => {
    if (result instanceof Promise) result.then(then, backendError)
    else then(result)
  }

  const deliver = (topic: string, frame: string, bytes: number, except?: SocketState) => {
    const set = subscribers.get(topic)
    if (!set) return 0
    let delivered = 0
    for (const state of set) {
      if (state === except) continue
      const held = state.draining?.get(topic)
      if (held) held.frames.push(frame)
      else if (!state.socket.send(frame)) continue
      delivered++
    }
    counts.delivered += delivered
    counts.bytesSent += delivered * bytes
    return delivered
  }

  const sendOrRequeue = (state: SocketState, topic: string, frame: string) => {
    const bytes = byteLength(frame)
    if (!state.closed && state.socket.send(frame)) {
      counts.delivered++
      counts.bytesSent += bytes
      // The socket went away between drain and send: put the message back, on its reader's budget, rather than
      // lose it.
    } else settle(backend.enqueue(topic, frame, bytes, state.key), noop)
  }

  const drainTo = (state: SocketState, topic: string) => {
    state.draining ??= new Map()
    let held = state.draining.get(topic)
    if (!held) {
      held = { waiting: 0, frames: [] }
      state.draining.set(topic, held)
    }
    held.waiting++
    const done = (frames: readonly string[]) => {
      for (const frame of frames) sendOrRequeue(state, topic, frame)
      if (--held.waiting > 0) return
      state.draining?.delete(topic)
      // Live frames that arrived meanwhile were counted as delivered already; a closed socket gets them queued.
      for (const frame of held.frames)
        if (state.closed || !state.socket.send(frame))
          settle(backend.enqueue(topic, frame, byteLength(frame), state.key), noop)
    }
    const result = backend.drain(topic)
    if (result instanceof Promise)
      result.then(done, (error: unknown) => {
        backendError(error)
        done([])
      })
    else done(result)
  }

  const subscribe = (state: SocketState, topic: string) => {
    if (!state.topics.includes(topic)) {
      if (state.topics.length >= options.maxTopicsPerSocket) {
        counts.refusedTopicsPerSocket++
        return
      }
      state.topics.push(topic)
      counts.subscriptions++
      let set = subscribers.get(topic)
      if (!set) {
        set = new Set()
        subscribers.set(topic, set)
        backend.subscribe(topic)
      }
      set.add(state)
    }
    drainTo(state, topic)
  }

  const publish = (state: SocketState, topic: string, frame: string, bytes: number, silent: boolean) => {
    counts.published++
    const delivered = deliver(topic, frame, bytes, state)
    const result = backend.publish(topic, frame, bytes, delivered, state.key)
    if (result) result.catch(backendError)
    // v1 bridges call the push webhooks on every non-silent pub, whether or not a subscriber is live (§3.4).
    if (!silent) settle(backend.webhooks(topic), (urls) => notifier.notify(urls, topic))
  }

  const unsubscribeAll = (state: SocketState) => {
    for (const topic of state.topics) {
      const set = subscribers.get(topic)
      if (!set) continue
      set.delete(state)
      if (set.size === 0) {
        subscribers.delete(topic)
        backend.unsubscribe(topic)
      }
    }
    counts.subscriptions -= state.topics.length
    state.topics = []
  }

  const allow = (state: SocketState) => {
    if (rate === 0) return true
    const now = performance.now()
    state.tokens = Math.min(burst, state.tokens + (now - state.refilledAt) * rate)
    state.refilledAt = now
    if (state.tokens < 1) return false
    state.tokens--
    return true
  }

  // A limit that bites is never a silent loss: counted, logged, and the peer sees why its socket closes.
  const refuse = (state: SocketState, limit: 'socket' | 'address') => {
    state.refused = true
    if (limit === 'socket') counts.refusedRateLimit++
    else counts.refusedRateLimitPerIp++
    logger.warn({ socket: state.socket.id, address: state.key, limit }, 'rate limit exceeded, closing socket')
    state.socket.close(CLOSE_POLICY_VIOLATION, 'Rate limit exceeded')
  }

  // One class per bridge: its methods live once on the prototype instead of as closures on every socket.
  class SocketConnection implements SocketState {
    topics: string[] = []
    tokens = burst
    refilledAt = performance.now()
    closed = false
    refused = false
    draining: SocketState['draining'] = undefined
    readonly key: string
    constructor(readonly socket: Socket) {
      this.key = addressKey(socket.remoteAddress)
    }

    receive(text: string, bytes = byteLength(text)) {
      counts.bytesReceived += bytes
      if (this.closed || this.refused) return
      const message = parseSocketMessage(text)
      // 1.8.0 acks every frame it receives: acks cost a peer nothing, or a peer receiving at the rate limit could not
      // send at all. They are ignored, as every v1 bridge did.
      if (message?.type === 'ack') return
      if (!allow(this)) return refuse(this, 'socket')
      if (!perAddress.take(this.key)) return refuse(this, 'address')
      // v1 clients ignore the text replies some bridges sent for bad frames, so ignoring them loses nothing.
      if (!message) {
        counts.invalidMalformed++
        return
      }
      const { topic, type } = message
      if (topic.length === 0 || topic.length > options.maxTopicLength) {
        counts.invalidTopic++
        return
      }
      if (type === 'pub') publish(this, topic, text, bytes, message.silent)
      else if (type === 'sub') subscribe(this, topic)
      // Unknown types are ignored, as every v1 bridge did.
    }

    receiveBinary(bytes: number) {
      counts.bytesReceived += bytes
      counts.invalidBinary++
    }

    close() {
      if (this.closed) return
      this.closed = true
      counts.connections--
      unsubscribeAll(this)
    }
  }

  const context: BackendContext = {
    counts,
    logger,
    queue: {
      ttlSeconds: options.ttlSeconds,
      maxQueueLength: options.maxQueueLength,
      maxQueuedBytes: options.maxQueuedBytes,
      maxQueuedBytesPerOwner: options.maxQueuedBytesPerIp,
    },
    webhooks: { maxPerTopic: options.maxWebhooksPerTopic, ttlSeconds: options.webhookTtlSeconds },
    deliver: (topic, frame, bytes = byteLength(frame)) => deliver(topic, frame, bytes),
  }

  return {
    options,
    backend,
    logger,
    metrics,
    start: () => backend.start(context),
    connect(socket) {
      counts.connections++
      counts.connectionsOpened++
      return new SocketConnection(socket)
    },
    async subscribeWebhook(topic, url, remoteAddress) {
      if (remoteAddress !== undefined && !registrations.take(addressKey(remoteAddress))) {
        counts.refusedWebhookRegistrations++
        throw new WebhookRateLimitedError('Too many webhook registrations from this address')
      }
      await notifier.check(url)
      await backend.addWebhook(topic, url)
    },
    isHealthy: () => backend.isHealthy(),
    async close() {
      await notifier.close()
      await backend.close()
    },
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

function noop() {}
