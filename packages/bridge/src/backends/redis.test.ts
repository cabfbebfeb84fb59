import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { silentLogger } from '../logger.js'
import { createBridgeMetrics } from '../metrics.js'
import type { Backend, BackendContext } from './backend.js'
import { createRedisBackend } from './redis.js'

let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

const backends: Backend[] = []
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  for (const backend of backends.splice(0)) await backend.close()
})

let run = 0
async function start(
  queue: Partial<BackendContext['queue']> = {},
  keyPrefix = `${redis.keyPrefix}${++run}:`,
  maxTotalQueuedBytes?: number,
  links?: false,
) {
  const backend = createRedisBackend({ url: redis.url, keyPrefix, maxTotalQueuedBytes, links })
  backends.push(backend)
  const delivered: [string, string][] = []
  const context: BackendContext = {
    counts: createBridgeMetrics().counts,
    logger: silentLogger,
    queue: {
      ttlSeconds: 60,
      maxQueueLength: 100,
      maxQueuedBytes: 1 << 20,
      maxQueuedBytesPerOwner: 1 << 30,
      ...queue,
    },
    webhooks: { maxPerTopic: 2, ttlSeconds: 60 },
    deliver(topic, frame) {
      delivered.push([topic, frame])
      return 1
    },
  }
  await backend.start(context)
  return { backend, counts: context.counts, delivered, keyPrefix }
}

test('default', async () => {
  const { backend, counts } = await start()
  await backend.publish('t', 'a', 1, 0, 'owner')
  await backend.publish('t', 'b', 1, 0, 'owner')
  await backend.publish('t', 'c', 1, 1, 'owner')
  expect(await backend.drain('t')).toEqual(['a', 'b'])
  expect(await backend.drain('t')).toEqual([])
  expect(counts.queued).toBe(2)
})

describe('behavior', () => {
  test('behavior: two nodes draining at once never share a frame', async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    const frames = Array.from({ length: 50 }, (_, i) => `frame-${i}`)
    for (const frame of frames) await a.backend.enqueue('t', frame, frame.length, 'owner')
    const [fromA, fromB] = await Promise.all([a.backend.drain('t'), b.backend.drain('t')])
    expect([...fromA, ...fromB].sort()).toEqual([...frames].sort())
    expect(fromA.length === 0 || fromB.length === 0).toBe(true)
  })

  test('behavior: a frame published on one node is delivered by the node subscribed to its topic', async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    b.backend.subscribe('t')
    await b.backend.drain('t')
    await a.backend.publish('t', 'hello', 5, 0, 'owner')
    await expect.poll(() => b.delivered).toEqual([['t', 'hello']])
    // Delivered on b, so nothing was queued.
    expect(await a.backend.drain('t')).toEqual([])
    expect(a.delivered).toEqual([])
  })

  test('behavior: a node does not deliver its own frames twice', async () => {
    const a = await start()
    a.backend.subscribe('t')
    await a.backend.drain('t')
    await a.backend.publish('t', 'x', 1, 1, 'owner')
    // A marker from another node takes the same channel to a: an echo of `x` would have arrived first.
    const b = await start({}, a.keyPrefix)
    await b.backend.publish('t', 'marker', 6, 0, 'owner')
    await expect.poll(() => a.delivered.length).toBe(1)
    expect(a.delivered).toEqual([['t', 'marker']])
  })

  test("behavior: once the script found a topic's nodes, the next frames go to them without it", async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    b.backend.subscribe('t')
    await b.backend.drain('t')
    await a.backend.publish('t', 'first', 5, 0, 'owner')
    const inspect = new Redis(redis.url)
    cleanups.push(() => inspect.disconnect())
    const scripts = async () => {
      const stats = await inspect.info('commandstats')
      return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0)
    }
    const before = await scripts()
    const frames = Array.from({ length: 10 }, (_, i) => `frame-${i}`)
    for (const frame of frames) await a.backend.publish('t', frame, frame.length, 0, 'owner')
    await expect.poll(() => b.delivered.length).toBe(11)
    expect(b.delivered.map(([, frame]) => frame)).toEqual(['first', ...frames])
    expect(await scripts()).toBe(before)
    expect(await a.backend.drain('t')).toEqual([])
  })

  test('behavior: a frame published straight to a node that stopped is queued', async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    b.backend.subscribe('t')
    await b.backend.drain('t')
    await a.backend.publish('t', 'first', 5, 0, 'owner')
    await a.backend.publish('t', 'second', 6, 0, 'owner')
    await expect.poll(() => b.delivered.length).toBe(2)
    await b.backend.close()
    await a.backend.publish('t', 'while b is gone', 15, 0, 'owner')
    expect(await a.backend.drain('t')).toEqual(['while b is gone'])
  })

  test('behavior: direct frames of one turn to one node go as one channel message, in order', async () => {
    // Through Redis: no link between the nodes (redis.links.test.ts has those).
    const a = await start({}, undefined, undefined, false)
    const b = await start({}, a.keyPrefix)
    for (const topic of ['t', 'u']) {
      b.backend.subscribe(topic)
      await b.backend.drain(topic)
      await a.backend.publish(topic, `${topic}-first`, 7, 0, 'owner')
    }
    await expect.poll(() => b.delivered.length).toBe(2)
    const inspect = new Redis(redis.url)
    cleanups.push(() => inspect.disconnect())
    const [idB] = await inspect.smembers(`${a.keyPrefix}s:t`)
    const listener = new Redis(redis.url)
    cleanups.push(() => listener.disconnect())
    const messages: string[] = []
    listener.on('message', (_channel: string, message: string) => messages.push(message))
    await listener.subscribe(`${a.keyPrefix}n:${idB}`)
    const frames: [string, string][] = [
      ['t', 't1'],
      ['u', 'ü2'],
      ['t', 't3'],
      ['u', 'u4'],
      ['t', 't5'],
    ]
    await Promise.all(
      frames.map(([topic, frame]) => a.backend.publish(topic, frame, Buffer.byteLength(frame), 0, 'owner')),
    )
    await a.backend.publish('t', 'marker', 6, 0, 'owner')
    await waitFor(() => messages.some((message) => message.endsWith('marker')), { message: 'the marker' })
    expect(messages).toHaveLength(2)
    await expect.poll(() => b.delivered.length).toBe(8)
    expect(b.delivered.slice(2)).toEqual([...frames, ['t', 'marker']])
  })

  test('behavior: a frame that needs the script waits for the batch holding an earlier frame of its topic', async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    b.backend.subscribe('t')
    await b.backend.drain('t')
    await a.backend.publish('t', 'first', 5, 0, 'owner')
    await expect.poll(() => b.delivered.length).toBe(1)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      // A command already waiting in ioredis' pipeline of this turn, which the script would join.
      const queued = a.backend.enqueue('other', 'x', 1, 'owner')
      const direct = a.backend.publish('t', 'direct', 6, 0, 'owner')
      // The topic's nodes are now too old to trust: the next frames go through the script.
      vi.setSystemTime(Date.now() + 60_000)
      const scripted = [
        a.backend.publish('t', 'scripted', 8, 0, 'owner'),
        a.backend.publish('t', 'then', 4, 0, 'owner'),
      ]
      await Promise.all([queued, direct, ...scripted])
    } finally {
      vi.useRealTimers()
    }
    await expect.poll(() => b.delivered.length).toBe(4)
    expect(b.delivered.map(([, frame]) => frame)).toEqual(['first', 'direct', 'scripted', 'then'])
  })

  test('behavior: a batch to a node that stopped listening falls back to the script without loss', async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    const c = await start({}, a.keyPrefix)
    for (const [node, topic] of [
      [b, 't'],
      [b, 'u'],
      [c, 'u'],
    ] as const) {
      node.backend.subscribe(topic)
      await node.backend.drain(topic)
    }
    await a.backend.publish('t', 't0', 2, 0, 'owner')
    await a.backend.publish('u', 'u0', 2, 0, 'owner')
    await expect.poll(() => b.delivered.length + c.delivered.length).toBe(3)
    await b.backend.close()
    const frames: [string, string][] = [
      ['t', 't1'],
      ['u', 'u2'],
      ['t', 't3'],
      ['u', 'u4'],
    ]
    await Promise.all(frames.map(([topic, frame]) => a.backend.publish(topic, frame, 2, 0, 'owner')))
    expect(await a.backend.drain('t')).toEqual(['t1', 't3'])
    await expect
      .poll(() => c.delivered)
      .toEqual([
        ['u', 'u0'],
        ['u', 'u2'],
        ['u', 'u4'],
      ])
    expect(await a.backend.drain('u')).toEqual([])
  })

  test("behavior: a node that registered after the publisher cached the topic's nodes still gets the frame", async () => {
    const b = await start()
    const c = await start({}, b.keyPrefix)
    b.backend.subscribe('t')
    await b.backend.drain('t')
    const inspect = new Redis(redis.url)
    cleanups.push(() => inspect.disconnect())
    const [idB] = await inspect.smembers(`${b.keyPrefix}s:t`)
    c.backend.subscribe('t')
    await c.backend.drain('t')
    // A publisher whose cache predates c's registration: its frame names b alone. Redis sent c's announcement to b
    // first, so b hands the frame on.
    const stale = 'f'.repeat(16)
    await inspect.publish(`${b.keyPrefix}n:${idB}`, `d${stale}${idB}:1:t5:ownerframe`)
    await expect.poll(() => c.delivered).toEqual([['t', 'frame']])
    expect(b.delivered).toEqual([['t', 'frame']])
    // Once only: a marker through the script reaches both after any second copy would have.
    const a = await start({}, b.keyPrefix)
    await a.backend.publish('t', 'marker', 6, 0, 'owner')
    await expect.poll(() => c.delivered.length).toBe(2)
    await expect.poll(() => b.delivered.length).toBe(2)
    expect(c.delivered).toEqual([
      ['t', 'frame'],
      ['t', 'marker'],
    ])
  })

  test('behavior: webhooks are kept per topic, newest first beyond the cap', async () => {
    const { backend } = await start()
    await backend.addWebhook('t', 'https://a.example/push')
    await backend.addWebhook('t', 'https://b.example/push')
    await backend.addWebhook('t', 'https://c.example/push')
    expect([...(await backend.webhooks('t'))].sort()).toEqual([
      'https://b.example/push',
      'https://c.example/push',
    ])
    expect(await backend.webhooks('other')).toEqual([])
  })

  test('behavior: isHealthy is true while Redis answers', async () => {
    const { backend } = await start()
    expect(await backend.isHealthy()).toBe(true)
  })
})

describe('error', () => {
  test('error: beyond maxQueueLength the oldest message is dropped and counted', async () => {
    const { backend, counts } = await start({ maxQueueLength: 2 })
    for (const frame of ['1', '2', '3']) await backend.enqueue('t', frame, 1, 'owner')
    expect(await backend.drain('t')).toEqual(['2', '3'])
    expect(counts.dropped).toBe(1)
  })

  test('error: beyond maxQueuedBytes the oldest messages are dropped; a larger frame is not queued', async () => {
    const { backend, counts } = await start({ maxQueuedBytes: 10 })
    await backend.enqueue('t', 'aaaa', 4, 'owner')
    await backend.enqueue('t', 'bbbb', 4, 'owner')
    await backend.enqueue('t', 'cccc', 4, 'owner')
    await backend.enqueue('t', 'x'.repeat(11), 11, 'owner')
    expect(await backend.drain('t')).toEqual(['bbbb', 'cccc'])
    expect(counts.dropped).toBe(2)
    // The byte counter went with the drained queue.
    await backend.enqueue('t', 'd'.repeat(10), 10, 'owner')
    expect(await backend.drain('t')).toEqual(['d'.repeat(10)])
  })

  test('error: an owner over maxQueuedBytesPerOwner has its new messages refused; drains give bytes back', async () => {
    const { backend, counts } = await start({ maxQueuedBytesPerOwner: 8 })
    for (const topic of ['t1', 't2', 't3']) await backend.enqueue(topic, 'aaaa', 4, 'big')
    await backend.enqueue('t4', 'bbbb', 4, 'other')
    expect(counts.refusedQueuedBytesPerIp).toBe(1)
    expect([await backend.drain('t1'), await backend.drain('t3'), await backend.drain('t4')]).toEqual([
      ['aaaa'],
      [],
      ['bbbb'],
    ])
    await backend.enqueue('t5', 'cccc', 4, 'big')
    expect(await backend.drain('t5')).toEqual(['cccc'])
  })

  test('error: beyond maxTotalQueuedBytes the owner with the most queued bytes loses its oldest first', async () => {
    const { backend, counts } = await start({}, undefined, 20)
    await backend.enqueue('victim', 'vvvv', 4, 'small')
    for (let i = 0; i < 6; i++) await backend.enqueue(`t${i}`, `${i}aaa`, 4, 'big')
    expect(counts.dropped).toBeGreaterThan(0)
    expect(await backend.drain('victim')).toEqual(['vvvv'])
    expect(await backend.drain('t0')).toEqual([])
    expect(await backend.drain('t5')).toEqual(['5aaa'])
  })

  test('behavior: accounting of entries whose keys expired is reset by the next eviction', async () => {
    const { backend, keyPrefix } = await start({}, undefined, 20)
    const inspect = new Redis(redis.url)
    try {
      for (let i = 0; i < 4; i++) await backend.enqueue(`gone${i}`, 'gggg', 4, 'stale')
      // As if the queue keys had expired: the owner is still charged 16 bytes that no queue holds.
      for (let i = 0; i < 4; i++) await inspect.del(`${keyPrefix}q:gone${i}`, `${keyPrefix}qb:gone${i}`)
      for (let i = 0; i < 4; i++) await backend.enqueue(`t${i}`, 'nnnn', 4, 'fresh')
      // 16 + 16 > 20: the stale owner's charge is found empty and cleared; nothing real had to go.
      for (let i = 0; i < 4; i++) expect(await backend.drain(`t${i}`)).toEqual(['nnnn'])
      expect(Number(await inspect.get(`${keyPrefix}total`))).toBe(0)
    } finally {
      inspect.disconnect()
    }
  })

  test('error: messages older than the TTL expire and are counted', async () => {
    const { backend, counts } = await start({ ttlSeconds: 0.2 })
    // Expiry is a point in time: wait until the clock the backend reads has passed it.
    const expired = (since: number) => waitFor(() => Date.now() > since + 200, { message: 'the TTL' })
    let queuedAt = Date.now()
    await backend.enqueue('t', 'old', 3, 'owner')
    await expired(queuedAt)
    queuedAt = Date.now()
    await backend.enqueue('t', 'new', 3, 'owner')
    expect(counts.expired).toBe(1)
    await expired(queuedAt)
    expect(await backend.drain('t')).toEqual([])
    expect(counts.expired).toBe(2)
  })
})
