import { expect, test } from 'vitest'
import { createBridgeMetrics } from './metrics.js'

test('default', async () => {
  const { counts, registry } = createBridgeMetrics()
  counts.published += 3
  counts.connections = 2
  counts.invalidBinary = 4
  const text = await registry.metrics()
  expect(text).toContain('pairlink_bridge_messages_published_total 3')
  expect(text).toContain('pairlink_bridge_connections 2')
  expect(text).toContain('pairlink_bridge_frames_invalid_total{reason="binary"} 4')
  for (const name of [
    'subscriptions',
    'messages_delivered_total',
    'messages_queued_total',
    'messages_expired_total',
    'messages_dropped_total',
    'bytes_received_total',
    'bytes_sent_total',
    'webhook_calls_total',
    'webhook_failures_total',
    'backend_errors_total',
  ])
    expect(text).toContain(`pairlink_bridge_${name} `)
  // Counts are read at scrape time, not accumulated twice.
  expect(await registry.metrics()).toContain('pairlink_bridge_messages_published_total 3')
})

test('behavior: two bridges in one process keep separate registries', async () => {
  const a = createBridgeMetrics()
  const b = createBridgeMetrics({ processMetrics: true })
  a.counts.delivered = 1
  expect(await b.registry.metrics()).toContain('pairlink_bridge_messages_delivered_total 0')
  expect(await b.registry.metrics()).toContain('pairlink_bridge_process_resident_memory_bytes')
  expect(await a.registry.metrics()).not.toContain('process_resident_memory_bytes')
})
