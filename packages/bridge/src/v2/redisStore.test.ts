import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createRedisRelayStore } from './redisStore.js'
import type { RelayStore, RelayStoreLimits, StoredMessage } from './store.js'

// The v2 Redis store on a real redis-server, driven directly (the relay's side of the seam).
let redis: TestRedis
let inspect: Redis
beforeAll(async () => {
  redis = await startRedis()
  inspect = new Redis(redis.url)
})
afterAll(async () => {
  inspect.disconnect()
  await redis.stop()
})
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// A total 16 times the address budget: the address's share of what is free is its budget while the mailbox is empty.
const SMALL = {
  maxMessagesPerTopic: 10,
  maxBytesPerTopic: 1_000,
  maxBytesPerAddress: 1_000,
  maxBytesPerNetwork: 1_000,
  maxTotalBytes: 16_000,
}
const T = 'a'.repeat(64)
const U = 'b'.repeat(64)
let run = 0

async function store(limits: Partial<RelayStoreLimits> = {}, keyPrefix = `${redis.keyPrefix}${++run}:`) {
  const counts = { dropped: 0, expired: 0, failed: 0 }
  const delivered: StoredMessage[] = []
  const created: RelayStore = createRedisRelayStore({ url: redis.url, keyPrefix })
  await created.start({
    limits: {
      maxMessagesPerTopic: 1_000,
      maxBytesPerTopic: 8_388_608,
      maxBytesPerAddress: 16_777_216,
      maxBytesPerNetwork: 33_554_432,
      maxTotalBytes: 268_435_456,
      // The figures below were worked out with these shares.
      addressShareDivisor: 16,
      networkShareDivisor: 8,
      ...limits,
    },
    logger: console,
    dropped: (n) => {
      counts.dropped += n
    },
    expired: (n) => {
      counts.expired += n
    },
    failed: () => {
      counts.failed++
    },
    deliver: (message) => delivered.push(message),
    recovered: () => {},
  })
  cleanups.push(() => created.close())
  return { store: created, counts, delivered, keyPrefix }
}

function message(
  topic: string,
  text: string,
  options: { from?: string; owner?: string; ttlMs?: number } = {},
) {
  const now = Date.now()
  const stored: StoredMessage = {
    topic,
    message: text,
    tag: 1108,
    publishedAt: now,
    expiresAt: now + (options.ttlMs ?? 60_000),
    from: options.from ?? 'did:key:dapp',
    owner: options.owner ?? '10.0.0.1',
    bytes: text.length + topic.length,
    acked: new Set(),
  }
  return stored
}
const texts = (list: readonly StoredMessage[]) => list.map((m) => m.message)

test('default: kept in order, not returned to the publisher, returned to anyone else until it acks', async () => {
  const { store: s } = await store()
  for (const text of ['1', '2', '3']) expect(await s.add(message(T, text))).toBeUndefined()
  expect(texts(await s.pending(T, 'did:key:dapp', Date.now()))).toEqual([])
  const kept = await s.pending(T, 'did:key:wallet', Date.now())
  expect(texts(kept)).toEqual(['1', '2', '3'])
  expect(kept[0]).toMatchObject({ topic: T, tag: 1108, from: 'did:key:dapp', owner: '10.0.0.1' })
  s.ack(kept[1] as StoredMessage, 'did:key:wallet')
  expect(texts(await s.pending(T, 'did:key:wallet', Date.now()))).toEqual(['1', '3'])
  // Acks are per client: another client still gets all three.
  expect(texts(await s.pending(T, 'did:key:other', Date.now()))).toEqual(['1', '2', '3'])
})

describe('behavior', () => {
  test('behavior: the adds of one turn are one batch: each gets its own answer, in order, and a read sees them', async () => {
    const { store: s, counts } = await store({ maxMessagesPerTopic: 2, maxBytesPerAddress: 300 })
    const sent = ['1', '2', '3', 'x'.repeat(200), '5'].map((text) => message(T, text))
    const answers = sent.map((m) => s.add(m))
    // Read in the same turn as the adds: they reach Redis first.
    const kept = s.pending(T, 'did:key:wallet', Date.now())
    expect(await Promise.all(answers)).toEqual([undefined, undefined, undefined, 'address', undefined])
    expect(texts(await kept)).toEqual(['3', '5'])
    expect(counts.dropped).toBe(2)
    expect(s.size()).toEqual({ messages: 2, bytes: 130 })
    expect(new Set(sent.map((m) => m.id)).size).toBe(5)
  })

  test('behavior: a key prefix with quotes, backslashes and control characters is written into the scripts as is', async () => {
    const keyPrefix = `${redis.keyPrefix}"q\\'\n\t\u00e9:`
    const { store: created } = await store(SMALL, keyPrefix)
    const sent = message(T, 'odd')
    expect(await created.add(sent)).toBeUndefined()
    created.ack(sent, 'did:key:wallet')
    expect(texts(await created.pending(T, 'did:key:other', Date.now()))).toEqual(['odd'])
    expect(await created.pending(T, 'did:key:wallet', Date.now())).toEqual([])
    expect(await inspect.exists(`${keyPrefix}t:${T}`, `${keyPrefix}a:${sent.id}`, `${keyPrefix}x`)).toBe(3)
  })

  test('behavior: the acks of one turn are one batch, recorded before a read of the mailbox on this node', async () => {
    const { store: s, keyPrefix } = await store()
    for (const text of ['1', '2', '3', '4']) await s.add(message(T, text))
    const kept = await s.pending(T, 'did:key:wallet', Date.now())
    for (const m of kept.slice(0, 3)) s.ack(m, 'did:key:wallet')
    s.ack(kept[3] as StoredMessage, 'did:key:other')
    // Read in the same turn as the acks: they reach Redis first.
    expect(texts(await s.pending(T, 'did:key:wallet', Date.now()))).toEqual(['4'])
    expect(texts(await s.pending(T, 'did:key:other', Date.now()))).toEqual(['1', '2', '3'])
    const ttl = await inspect.pttl(`${keyPrefix}a:${kept[0]?.id}`)
    expect(ttl).toBeGreaterThan(50_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  test('behavior: the watches and reads of one turn are batched in slices, each read answered for its own topic', async () => {
    const { store: s, keyPrefix } = await store()
    const topics = Array.from({ length: 450 }, (_, i) => i.toString(16).padStart(64, '0'))
    await s.add(message(topics[7] as string, 'seven'))
    await s.add(message(topics[300] as string, 'three hundred'))
    const registered = topics.map((topic) => s.watch(topic))
    // Left in the same turn: never registered.
    registered.push(s.watch(U) as Promise<void>)
    s.unwatch(U)
    const lists = await Promise.all(topics.map((topic) => s.pending(topic, 'did:key:wallet', Date.now())))
    await Promise.all(registered)
    const found = lists.flatMap((list, i) => (list.length > 0 ? [[i, texts(list)]] : []))
    expect(found).toEqual([
      [7, ['seven']],
      [300, ['three hundred']],
    ])
    for (const topic of [topics[0], topics[449]]) {
      expect(await inspect.scard(`${keyPrefix}s:${topic}`)).toBe(1)
      expect(await inspect.pttl(`${keyPrefix}s:${topic}`)).toBeGreaterThan(1_700_000)
    }
    expect(await inspect.exists(`${keyPrefix}s:${U}`)).toBe(0)
  })

  test('behavior: an ack that comes before its add has answered is recorded once the add has its seq', async () => {
    const { store: s } = await store()
    const sent = message(T, 'early')
    // The relay pushes a message while Redis keeps it: the subscriber's ack can come first.
    const answer = s.add(sent)
    s.ack(sent, 'did:key:wallet')
    expect(await answer).toBeUndefined()
    expect(texts(await s.pending(T, 'did:key:other', Date.now()))).toEqual(['early'])
    expect(await s.pending(T, 'did:key:wallet', Date.now())).toEqual([])
  })

  test('behavior: a message expires with its ttl; the sweep takes it off the budgets', async () => {
    const { store: s, keyPrefix } = await store()
    await s.add(message(T, 'short', { ttlMs: 150 }))
    await s.add(message(T, 'long'))
    expect(texts(await s.pending(T, 'did:key:wallet', Date.now()))).toEqual(['short', 'long'])
    await waitFor(async () => (await s.pending(T, 'did:key:wallet', Date.now())).length === 1, {
      message: 'short message expired',
    })
    expect(s.size().messages).toBe(2)
    expect(await s.sweep(Date.now())).toEqual({ expired: 1, done: true })
    expect(s.size()).toEqual({ messages: 1, bytes: 4 + 64 })
    expect(await inspect.hget(`${keyPrefix}owners`, '10.0.0.1')).toBe(String(4 + 64))
  })

  test('behavior: the sweep takes expired messages in slices of 200', async () => {
    const { store: s } = await store()
    await Promise.all(
      Array.from({ length: 1_100 }, (_, i) =>
        s.add(message(i.toString(16).padStart(64, '0'), 'x', { ttlMs: 1 })),
      ),
    )
    const later = Date.now() + 1_000
    const slices = []
    for (;;) {
      const slice = await s.sweep(later)
      slices.push(slice.expired)
      if (slice.done) break
    }
    expect(slices).toEqual([200, 200, 200, 200, 200, 100])
    expect(s.size()).toEqual({ messages: 0, bytes: 0 })
  })

  test('behavior: the per-topic caps drop the topic oldest and count them', async () => {
    const { store: s, counts } = await store({ maxMessagesPerTopic: 2, maxBytesPerTopic: 200 })
    for (const text of ['1', '2', '3']) await s.add(message(T, text))
    expect(texts(await s.pending(T, 'did:key:wallet', Date.now()))).toEqual(['2', '3'])
    expect(counts.dropped).toBe(1)
    await s.add(message(T, 'x'.repeat(100)))
    expect(texts(await s.pending(T, 'did:key:wallet', Date.now()))).toEqual(['x'.repeat(100)])
    expect(await s.add(message(T, 'y'.repeat(200)))).toBe('topic')
    expect(s.size()).toEqual({ messages: 1, bytes: 164 })
  })

  test('behavior: ids are unique and the same on every node; a push from another node carries one', async () => {
    const a = await store()
    const { store: b, delivered } = await store(SMALL, a.keyPrefix)
    await b.watch(T)
    const sent = message(T, 'live')
    await a.store.add(sent)
    await waitFor(() => delivered.length === 1, { message: 'pushed to the other node' })
    expect(delivered[0]).toMatchObject({ topic: T, message: 'live', id: sent.id, from: 'did:key:dapp' })
    // Acked through node B, it is not returned by node A either (acks are written once per turn of B's event loop).
    b.ack(delivered[0] as StoredMessage, 'did:key:wallet')
    await waitFor(
      async () => (await inspect.sismember(`${a.keyPrefix}a:${sent.id}`, 'did:key:wallet')) === 1,
      {
        message: 'ack recorded',
      },
    )
    expect(await a.store.pending(T, 'did:key:wallet', Date.now())).toEqual([])
  })

  test('behavior: a topic whose expired entry is swept to make room keeps exact byte counts', async () => {
    // The address's share, (6 400 - owed) / 16, refuses the third message until the expired one is swept.
    const { store: s, keyPrefix } = await store({ maxTotalBytes: 6_400 })
    await s.add(message(T, 'a'))
    await s.add(message(T, 'x'.repeat(100), { ttlMs: 50 }))
    const expiredAt = Date.now() + 60
    await waitFor(() => Date.now() > expiredAt, { message: 'entry expired' })
    expect(await s.add(message(T, 'y'.repeat(200)))).toBeUndefined()
    expect(await inspect.get(`${keyPrefix}tb:${T}`)).toBe(String(65 + 264))
    expect(await inspect.get(`${keyPrefix}total`)).toBe(String(65 + 264))
  })
})

describe('error', () => {
  test('error: an address over its budget is refused; other addresses are not affected', async () => {
    const { store: s } = await store({ maxBytesPerAddress: 200 })
    expect(await s.add(message(T, 'x'.repeat(100), { owner: '10.0.0.1' }))).toBeUndefined()
    expect(await s.add(message(U, 'x'.repeat(100), { owner: '10.0.0.1' }))).toBe('address')
    expect(await s.add(message(U, 'x'.repeat(100), { owner: '10.0.0.2' }))).toBeUndefined()
    expect(texts(await s.pending(U, 'did:key:wallet', Date.now()))).toEqual(['x'.repeat(100)])
  })

  test('error: budgets heal once keys expire: an expired mailbox holds no budget', async () => {
    const { store: s, keyPrefix, counts } = await store({ maxBytesPerAddress: 200, maxTotalBytes: 4_800 })
    await s.add(message(T, 'x'.repeat(100), { ttlMs: 100 }))
    // Redis drops the topic's keys on its own; the ledger still charges the address until a sweep or an add.
    await waitFor(async () => (await inspect.exists(`${keyPrefix}t:${T}`)) === 0, { message: 'keys expired' })
    expect(await inspect.hget(`${keyPrefix}owners`, '10.0.0.1')).toBe('164')
    expect(await s.add(message(U, 'y'.repeat(100)))).toBeUndefined()
    expect(counts.expired).toBe(1)
    expect(await inspect.hget(`${keyPrefix}owners`, '10.0.0.1')).toBe('164')
    expect(await inspect.get(`${keyPrefix}total`)).toBe('164')
    expect(s.size()).toEqual({ messages: 1, bytes: 164 })
  })
})
