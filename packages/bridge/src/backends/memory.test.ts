import { describe, expect, test } from 'vitest'
import { InvalidBridgeOptionsError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { createBridgeMetrics } from '../metrics.js'
import type { BackendContext } from './backend.js'
import { type CreateMemoryBackendParameters, createMemoryBackend } from './memory.js'

async function start(
  queue: Partial<BackendContext['queue']> = {},
  parameters: CreateMemoryBackendParameters = {},
  webhooks = { maxPerTopic: 2, ttlSeconds: 60 },
) {
  let time = 1_000_000
  const backend = createMemoryBackend({ now: () => time, ...parameters })
  const counts = createBridgeMetrics().counts
  await backend.start({
    counts,
    logger: silentLogger,
    queue: {
      ttlSeconds: 60,
      maxQueueLength: 100,
      maxQueuedBytes: 1 << 20,
      maxQueuedBytesPerOwner: 1 << 30,
      ...queue,
    },
    webhooks,
    deliver: () => 0,
  })
  return {
    backend,
    counts,
    advance: (ms: number) => {
      time += ms
    },
  }
}

test('default', async () => {
  const { backend, counts } = await start()
  backend.publish('t', 'a', 1, 0, 'owner')
  backend.publish('t', 'b', 1, 0, 'owner')
  backend.publish('t', 'c', 1, 2, 'owner')
  expect(backend.drain('t')).toEqual(['a', 'b'])
  expect(backend.drain('t')).toEqual([])
  expect(counts.queued).toBe(2)
  await backend.close()
})

describe('behavior', () => {
  test('behavior: messages older than the TTL expire, counted at drain or by the sweep', async () => {
    const { backend, counts, advance } = await start({ ttlSeconds: 1 })
    backend.enqueue('t', 'old', 3, 'owner')
    advance(600)
    backend.enqueue('t', 'new', 3, 'owner')
    advance(600)
    expect(backend.drain('t')).toEqual(['new'])
    expect(counts.expired).toBe(1)
    await backend.close()
  })

  test('behavior: the sweep forgets expired messages of topics nobody drains', async () => {
    const { backend, counts } = await start({ ttlSeconds: 0.05 }, { sweepIntervalMs: 20, now: Date.now })
    backend.enqueue('t', 'x', 1, 'owner')
    await expect.poll(() => counts.expired).toBe(1)
    expect(backend.drain('t')).toEqual([])
    await backend.close()
  })

  test('behavior: webhooks are kept per topic (newest beyond the cap) until their TTL', async () => {
    const { backend, advance } = await start()
    backend.addWebhook('t', 'https://a.example/')
    backend.addWebhook('t', 'https://b.example/')
    backend.addWebhook('t', 'https://a.example/')
    backend.addWebhook('t', 'https://c.example/')
    expect(backend.webhooks('t')).toEqual(['https://a.example/', 'https://c.example/'])
    advance(61_000)
    expect(backend.webhooks('t')).toEqual([])
    await backend.close()
  })
})

describe('error', () => {
  test('error: beyond maxQueueLength the oldest is dropped and counted', async () => {
    const { backend, counts } = await start({ maxQueueLength: 2 })
    for (const frame of ['1', '2', '3']) backend.enqueue('t', frame, 1, 'owner')
    expect(backend.drain('t')).toEqual(['2', '3'])
    expect(counts.dropped).toBe(1)
  })

  test('error: beyond maxQueuedBytes the oldest are dropped; a frame larger than it is not queued', async () => {
    const { backend, counts } = await start({ maxQueuedBytes: 10 })
    for (const frame of ['aaaa', 'bbbb', 'cccc']) backend.enqueue('t', frame, 4, 'owner')
    backend.enqueue('t', 'x'.repeat(11), 11, 'owner')
    expect(backend.drain('t')).toEqual(['bbbb', 'cccc'])
    expect(counts.dropped).toBe(2)
  })

  test('error: beyond maxTotalQueuedBytes one owner loses its oldest messages first', async () => {
    const { backend, counts } = await start({}, { maxTotalQueuedBytes: 10 })
    backend.enqueue('t1', 'aaaa', 4, 'owner')
    backend.enqueue('t2', 'bbbb', 4, 'owner')
    backend.enqueue('t3', 'cccc', 4, 'owner')
    expect(backend.drain('t1')).toEqual([])
    expect(backend.drain('t2')).toEqual(['bbbb'])
    expect(backend.drain('t3')).toEqual(['cccc'])
    expect(counts.dropped).toBe(1)
    // Drained bytes are given back.
    for (let i = 0; i < 2; i++) backend.enqueue('t4', 'dddd', 4, 'owner')
    expect(backend.drain('t4')).toHaveLength(2)
  })

  test('error: beyond maxTotalQueuedBytes the owner with the most queued bytes loses its oldest first', async () => {
    const { backend, counts } = await start({}, { maxTotalQueuedBytes: 20 })
    backend.enqueue('victim', 'vvvv', 4, 'small')
    for (let i = 0; i < 6; i++) backend.enqueue(`t${i}`, `${i}aaa`, 4, 'big')
    expect(counts.dropped).toBeGreaterThan(0)
    expect(backend.drain('victim')).toEqual(['vvvv'])
    // The big owner's newest survive, its oldest went.
    expect(backend.drain('t0')).toEqual([])
    expect(backend.drain('t5')).toEqual(['5aaa'])
  })

  test('error: an owner over maxQueuedBytesPerOwner has its new messages refused', async () => {
    const { backend, counts } = await start({ maxQueuedBytesPerOwner: 8 })
    for (const topic of ['t1', 't2', 't3']) backend.enqueue(topic, 'aaaa', 4, 'big')
    backend.enqueue('t4', 'bbbb', 4, 'other')
    expect(counts.refusedQueuedBytesPerIp).toBe(1)
    expect([backend.drain('t1'), backend.drain('t3'), backend.drain('t4')]).toEqual([['aaaa'], [], ['bbbb']])
    // Drained bytes are given back to the owner's budget.
    backend.enqueue('t5', 'cccc', 4, 'big')
    expect(backend.drain('t5')).toEqual(['cccc'])
  })

  test('error: beyond maxWebhookTopics the oldest topic is forgotten', async () => {
    const { backend } = await start({}, { maxWebhookTopics: 2 })
    for (const topic of ['t1', 't2', 't3']) backend.addWebhook(topic, 'https://a.example/')
    expect(backend.webhooks('t1')).toEqual([])
    expect(backend.webhooks('t3')).toEqual(['https://a.example/'])
  })

  test('error: invalid options throw', () => {
    expect(() => createMemoryBackend({ maxTotalQueuedBytes: 0 })).toThrow(InvalidBridgeOptionsError)
    expect(() => createMemoryBackend({ sweepIntervalMs: Number.NaN })).toThrow(InvalidBridgeOptionsError)
  })
})
