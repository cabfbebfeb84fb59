import type { Registry } from 'prom-client'
import { promCounts } from '../promCounts.js'
import type { Relay } from './createRelay.js'

/**
 * Exposes a v2 relay's counters on the bridge's registry, beside v1's (`pairlink_relay_v2_*`). Like v1, the hot path
 * only increments plain numbers; prom-client reads them when `/metrics` is scraped.
 *
 * @example
 * registerRelayMetrics(bridge.metrics.registry, relay)
 */
export function registerRelayMetrics(registry: Registry, relay: Relay): void {
  const { counts } = relay
  const { gauge, counter } = promCounts(registry, 'pairlink_relay_v2_', counts)
  gauge('connections', 'v2 WebSocket connections open now', 'connections')
  gauge('subscriptions', 'v2 topic subscriptions of open sockets', 'subscriptions')
  gauge('mailbox_messages', 'Messages kept in the v2 mailbox', () => relay.mailbox().messages)
  gauge('mailbox_bytes', 'Bytes kept in the v2 mailbox', () => relay.mailbox().bytes)
  counter('messages_published', 'Messages accepted (irn_publish, batch and wc_*Session)', 'publishes')
  counter('messages_delivered', 'irn_subscription pushes written, live or from the mailbox', 'deliveries')
  counter('acks', 'Pushes acknowledged by their client', 'acks')
  counter('messages_expired', 'Kept messages that outlived their ttl', 'expired')
  counter('messages_dropped', 'Kept messages dropped by the per-topic caps', 'dropped')
  counter(
    'requests_refused',
    'Requests refused by a limit (rate, topics per socket, mailbox full)',
    'refused',
  )
  counter('requests_invalid', 'Frames answered with a JSON-RPC error for bad input', 'invalid')
  counter(
    'store_errors',
    'Store operations that failed (Redis away); requests waiting on them got -32603',
    'storeErrors',
  )
  counter(
    'auth_refusals',
    'Upgrades refused: a missing or bad auth token, or a project or origin refused below',
    'authRefusals',
  )
  counter('project_refusals', 'Upgrades refused for a missing or unknown project id', 'projectRefusals')
  counter('origin_refusals', 'Upgrades refused for an Origin not allowed for the project', 'originRefusals')
}
