import { collectDefaultMetrics, Registry } from 'prom-client'
import { promCounts } from './promCounts.js'

/**
 * The bridge's counters as plain numbers. The relay's hot path only does `counts.x++`; prom-client reads them when
 * `/metrics` is scraped, so a message costs no metric-library call.
 */
export type BridgeCounts = {
  /** Sockets open now. */
  connections: number
  connectionsOpened: number
  /** TCP connections counted against their address that are not (yet) WebSockets, e.g. half-open upgrades. */
  connectionsPending: number
  /** Upgrades refused because the remote address already has its maximum of sockets. */
  connectionsRefused: number
  /** (socket, topic) subscriptions alive now. */
  subscriptions: number
  published: number
  delivered: number
  queued: number
  expired: number
  dropped: number
  bytesReceived: number
  bytesSent: number
  invalidBinary: number
  invalidMalformed: number
  invalidTopic: number
  invalidTooLarge: number
  /** Frames over a socket's rate limit (the socket is closed with 1008). */
  refusedRateLimit: number
  /** Frames over the rate limit shared by the sockets of one address (the socket is closed with 1008). */
  refusedRateLimitPerIp: number
  /** Messages not queued because their address already has its budget of queued bytes. */
  refusedQueuedBytesPerIp: number
  /** `POST /subscribe` calls answered 429 by the per-address rate limit. */
  refusedWebhookRegistrations: number
  /** Times the server stopped reading from a socket whose address sent more than its read rate (v1 and v2). */
  readPauses: number
  refusedTopicsPerSocket: number
  webhookCalls: number
  webhookFailures: number
  webhooksRefused: number
  backendErrors: number
}

/** Return type of {@link createBridgeMetrics}. */
export type BridgeMetrics = {
  counts: BridgeCounts
  /** A registry of this bridge alone (never prom-client's global one), so several bridges share a process. */
  registry: Registry
}

/** Parameters of {@link createBridgeMetrics}. */
export type CreateBridgeMetricsParameters = {
  /**
   * Also export prom-client's process metrics (RSS, CPU, event-loop lag, …).
   * @default false
   */
  processMetrics?: boolean | undefined
}

/**
 * Creates the counters of one bridge and a Prometheus registry that exposes them.
 *
 * @example
 * const metrics = createBridgeMetrics()
 * metrics.counts.published++
 * const text = await metrics.registry.metrics()
 */
export function createBridgeMetrics(parameters: CreateBridgeMetricsParameters = {}): BridgeMetrics {
  const counts: BridgeCounts = {
    connections: 0,
    connectionsOpened: 0,
    connectionsPending: 0,
    connectionsRefused: 0,
    subscriptions: 0,
    published: 0,
    delivered: 0,
    queued: 0,
    expired: 0,
    dropped: 0,
    bytesReceived: 0,
    bytesSent: 0,
    invalidBinary: 0,
    invalidMalformed: 0,
    invalidTopic: 0,
    invalidTooLarge: 0,
    refusedRateLimit: 0,
    refusedRateLimitPerIp: 0,
    refusedQueuedBytesPerIp: 0,
    refusedWebhookRegistrations: 0,
    readPauses: 0,
    refusedTopicsPerSocket: 0,
    webhookCalls: 0,
    webhookFailures: 0,
    webhooksRefused: 0,
    backendErrors: 0,
  }
  const registry = new Registry()

  const { gauge, counter, labelled } = promCounts(registry, 'pairlink_bridge_', counts)

  gauge('connections', 'WebSocket connections open now', 'connections')
  counter('connections_opened', 'WebSocket connections accepted', 'connectionsOpened')
  gauge(
    'connections_pending',
    'TCP connections counted per address that are not (yet) WebSockets',
    'connectionsPending',
  )
  counter('connections_refused', 'WebSocket upgrades refused by the per-address limit', 'connectionsRefused')
  gauge('subscriptions', 'Topic subscriptions of open sockets', 'subscriptions')
  counter('messages_published', 'pub frames accepted', 'published')
  counter('messages_delivered', 'Frames written to a subscriber, live or from the queue', 'delivered')
  counter('messages_queued', 'Messages queued for a topic without a live subscriber', 'queued')
  counter('messages_expired', 'Queued messages that outlived their TTL', 'expired')
  counter('messages_dropped', 'Queued messages dropped by the per-topic or total caps', 'dropped')
  counter('bytes_received', 'Bytes of text frames received', 'bytesReceived')
  counter('bytes_sent', 'Bytes of frames written to subscribers', 'bytesSent')
  labelled('frames_invalid', 'Frames ignored as invalid', {
    binary: 'invalidBinary',
    malformed: 'invalidMalformed',
    topic: 'invalidTopic',
    too_large: 'invalidTooLarge',
  })
  labelled('frames_refused', 'Frames refused by a per-socket or per-address limit', {
    rate_limit: 'refusedRateLimit',
    rate_limit_per_ip: 'refusedRateLimitPerIp',
    queued_bytes_per_ip: 'refusedQueuedBytesPerIp',
    topics_per_socket: 'refusedTopicsPerSocket',
  })
  counter(
    'webhook_registrations_refused',
    'POST /subscribe calls refused by the per-address rate limit (429)',
    'refusedWebhookRegistrations',
  )
  counter(
    'read_pauses',
    'Times reading from a socket paused because its address sent faster than maxReadBytesPerSecondPerIp',
    'readPauses',
  )
  counter('webhook_calls', 'Push webhook calls started', 'webhookCalls')
  counter('webhook_failures', 'Push webhook calls that failed, timed out or were dropped', 'webhookFailures')
  counter(
    'webhooks_refused',
    'Webhook registrations refused (invalid URL or private host)',
    'webhooksRefused',
  )
  counter('backend_errors', 'Backend (Redis) operations that failed', 'backendErrors')

  if (parameters.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'pairlink_bridge_' })
  return { counts, registry }
}
