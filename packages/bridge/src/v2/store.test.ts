import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_MAX_QUEUED_BYTES_PER_IP } from '../constants.js'
import { createMemoryRelayStore } from './memoryStore.js'
import { createRedisRelayStore } from './redisStore.js'
import { DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK, DEFAULT_RELAY_MAX_TOTAL_BYTES } from './relayOptions.js'
import {
  MAX_ACKS_PER_MESSAGE,
  NETWORK_SHARE_DIVISOR,
  type RelayStore,
  type RelayStoreLimits,
  type StoredMessage,
  type StoreRefusal,
} from './store.js'

// The budgets of the v2 mailbox, the same tests on both stores: they must agree exactly. Messages carry the bytes
// they cost (`bytes`), so that a large budget fills without large strings.
let redis: TestRedis
let run = 0
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const DEFAULTS: RelayStoreLimits = {
  maxMessagesPerTopic: 1_000,
  maxBytesPerTopic: 8_388_608,
  maxBytesPerAddress: DEFAULT_MAX_QUEUED_BYTES_PER_IP,
  maxBytesPerNetwork: DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK,
  maxTotalBytes: DEFAULT_RELAY_MAX_TOTAL_BYTES,
}

type Kind = 'memory' | 'redis'

async function open(kind: Kind, limits: Partial<RelayStoreLimits> = {}) {
  const counts = { dropped: 0 }
  const store: RelayStore =
    kind === 'memory'
      ? createMemoryRelayStore()
      : createRedisRelayStore({ url: redis.url, keyPrefix: `${redis.keyPrefix}${++run}:` })
  await store.start({
    limits: { ...DEFAULTS, ...limits },
    logger: console,
    dropped: (n) => {
      counts.dropped += n
    },
    expired: () => {},
    failed: () => {},
    deliver: () => {},
    recovered: () => {},
  })
  cleanups.push(() => store.close())
  let topics = 0
  const add = async (owner: string, bytes: number, topic = (++topics).toString(16).padStart(64, '0')) => {
    const message = stored(topic, owner, bytes)
    return { message, refused: await store.add(message) }
  }
  // Acks are written at the end of the turn (Redis): a read of the mailbox sends them first.
  const ack = async (message: StoredMessage, clientId = 'did:key:wallet') => {
    store.ack(message, clientId)
    await store.pending(message.topic, clientId, Date.now())
  }
  const kept = async (message: StoredMessage) =>
    (await store.pending(message.topic, 'did:key:reader', Date.now())).length > 0
  return { store, counts, add, ack, kept }
}

function stored(topic: string, owner: string, bytes: number): StoredMessage {
  const now = Date.now()
  return {
    topic,
    message: 'x',
    tag: 1108,
    publishedAt: now,
    expiresAt: now + 600_000,
    from: 'did:key:dapp',
    owner,
    bytes,
    acked: undefined,
  }
}

// Adds `bytes`-byte messages from `owner` until one is refused: the refusal and the bytes kept. Redis keeps the
// adds of one turn in one script, in order, so a batch of them gives the answers one at a time would.
async function fill(store: Awaited<ReturnType<typeof open>>, owner: string, bytes: number) {
  let kept = 0
  for (;;) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => store.add(owner, bytes)))
    for (const { refused } of answers) {
      if (refused) return { refused, kept }
      kept += bytes
    }
  }
}

// Fills networks one after another (IPv4 /24s, three addresses each, every address to its share): the fraction of
// the total they hold after each network.
async function fillNetworks(store: Awaited<ReturnType<typeof open>>, networks: number, bytes: number) {
  const fractions: number[] = []
  const refusals = new Set<StoreRefusal>()
  let owed = 0
  for (let n = 0; n < networks; n++) {
    for (let host = 1; ; host++) {
      // A handful of addresses fill a network's share; without one they would fill the total.
      if (host > 8) throw new Error(`network ${n} was never refused as a network`)
      const { refused, kept } = await fill(store, `10.${n >> 8}.${n & 255}.${host}`, bytes)
      owed += kept
      if (refused === 'network') break
      refusals.add(refused)
    }
    fractions.push(owed / DEFAULT_RELAY_MAX_TOTAL_BYTES)
  }
  return { fractions, refusals }
}

describe.each<Kind>(['memory', 'redis'])('%s store', (kind) => {
  test('error: one message records at most MAX_ACKS_PER_MESSAGE client ids; later ones may get it again', async () => {
    const s = await open(kind)
    const { message } = await s.add('10.0.0.1', 100)
    const clients = Array.from({ length: MAX_ACKS_PER_MESSAGE + 8 }, (_, i) => `did:key:reader${i}`)
    for (const clientId of clients) s.store.ack(message, clientId)
    const pushedAgain = []
    for (const clientId of clients)
      if ((await s.store.pending(message.topic, clientId, Date.now())).length > 0) pushedAgain.push(clientId)
    expect(pushedAgain).toEqual(clients.slice(MAX_ACKS_PER_MESSAGE))
  })

  test('behavior: the first ack takes a message off its address and network budgets; it still counts in the total', async () => {
    const s = await open(kind, {
      maxBytesPerAddress: 1_000,
      maxBytesPerNetwork: 1_500,
      maxTotalBytes: 160_000,
    })
    const first = await s.add('10.0.0.1', 600)
    expect(first.refused).toBeUndefined()
    expect((await s.add('10.0.0.1', 401)).refused).toBe('address')
    expect((await s.add('10.0.0.2', 901)).refused).toBe('network')
    await s.ack(first.message)
    // A second ack (another reader) changes nothing more.
    await s.ack(first.message, 'did:key:other')
    expect((await s.add('10.0.0.1', 1_000)).refused).toBeUndefined()
    expect((await s.add('10.0.0.2', 500)).refused).toBeUndefined()
    expect((await s.add('10.0.0.2', 1)).refused).toBe('network')
    // Delivered, it is still kept for a late reader, and counted in the total.
    expect(await s.kept(first.message)).toBe(true)
    await s.store.sweep(Date.now())
    expect(s.store.size()).toEqual({ messages: 3, bytes: 2_100 })
  })

  test('behavior: over the total, delivered messages are evicted oldest delivered first; owed ones never', async () => {
    // Budgets as large as the total: only the shares of what is free and the total bound the owners.
    const s = await open(kind, {
      maxBytesPerAddress: 16_000,
      maxBytesPerNetwork: 16_000,
      maxTotalBytes: 16_000,
      addressShareDivisor: 16,
      networkShareDivisor: 8,
    })
    const owed = await s.add('10.0.1.1', 800)
    const junk: StoredMessage[] = []
    // In pairs from two networks, each pair acked second first: the oldest delivered is junk[1], then junk[0].
    for (let i = 0; i < 19; i += 2) {
      const pair = [await s.add('10.0.10.1', 800)]
      if (i + 1 < 19) pair.push(await s.add('10.0.11.1', 800))
      for (const { refused } of pair) expect(refused).toBeUndefined()
      for (const { message } of [...pair].reverse()) await s.ack(message)
      junk.push(...pair.map(({ message }) => message))
    }
    await s.store.sweep(Date.now())
    expect(s.store.size()).toEqual({ messages: 20, bytes: 16_000 })
    // Full: each publish evicts one delivered message, oldest delivered first, never the owed one.
    const others = [await s.add('10.0.2.1', 800), await s.add('10.0.3.1', 800)]
    expect(others.map(({ refused }) => refused)).toEqual([undefined, undefined])
    expect(s.counts.dropped).toBe(2)
    const left = await Promise.all(junk.map((message) => s.kept(message)))
    expect(left).toEqual([false, false, ...Array(17).fill(true)])
    expect(await s.kept(owed.message)).toBe(true)
    for (const { message } of others) expect(await s.kept(message)).toBe(true)
    // A late ack of an evicted message changes no budget.
    await s.ack(junk[1] as StoredMessage, 'did:key:late')
    await s.store.sweep(Date.now())
    expect(s.store.size()).toEqual({ messages: 20, bytes: 16_000 })
  })

  test('behavior: shares shrink as the mailbox fills: an address gets free / 16, a network free / 8', async () => {
    const s = await open(kind, { maxTotalBytes: 160_000, addressShareDivisor: 16, networkShareDivisor: 8 })
    // Empty mailbox: one address may owe 10 000 (160 000 / 16), and not a byte more.
    expect((await s.add('10.0.0.1', 10_001)).refused).toBe('address')
    expect((await s.add('10.0.0.1', 9_000)).refused).toBeUndefined()
    // Free is 151 000: the address may owe 9 437.5 in all.
    expect((await s.add('10.0.0.1', 438)).refused).toBe('address')
    expect((await s.add('10.0.0.1', 437)).refused).toBeUndefined()
    // Free is 150 563: the network (9 437 owed) may owe 18 820.375 in all.
    expect((await s.add('10.0.0.2', 9_384)).refused).toBe('network')
    expect((await s.add('10.0.0.2', 9_000)).refused).toBeUndefined()
    // Another network is not affected by this one's share (the address's is 8 847.6 now).
    expect((await s.add('10.0.1.2', 8_000)).refused).toBeUndefined()
  })

  test('behavior: the figure: 75 networks fill the mailbox to 90 %, 150 to 99 %; one /24 is refused at 1/33 of it', async () => {
    const s = await open(kind)
    // Network k holds 1/(D + 1) of what the k - 1 before it left free (D = NETWORK_SHARE_DIVISOR): after k networks,
    // 1 - (D / (D + 1))^k of the total. (Each share is of what was free before the message: a network may pass its
    // share by a D-th of its last message.)
    const d = NETWORK_SHARE_DIVISOR
    const at90 = Math.ceil(Math.log(0.1) / Math.log(d / (d + 1)))
    const at99 = Math.ceil(Math.log(0.01) / Math.log(d / (d + 1)))
    expect([at90, at99]).toEqual([75, 150])
    const { fractions, refusals } = await fillNetworks(s, at99, 8_192)
    expect(fractions[0]).toBeLessThan(1 / (d + 1) + 0.0003)
    expect(fractions[0]).toBeGreaterThan(1 / (d + 1) - 0.0003)
    expect(fractions[0] ?? 1).toBeLessThan(
      DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK / DEFAULT_RELAY_MAX_TOTAL_BYTES,
    )
    expect(fractions[at90 - 2]).toBeLessThan(0.9)
    expect(fractions[at90 - 1]).toBeGreaterThanOrEqual(0.9 - 0.001)
    expect(fractions[at99 - 2]).toBeLessThan(0.99)
    expect(fractions[at99 - 1]).toBeGreaterThanOrEqual(0.99 - 0.0005)
    // Every address was stopped by its own share first, never by the total.
    expect([...refusals]).toEqual(['address'])
    // And no further: none of the 40 networks may keep another message.
    expect((await s.add(`10.0.${at99 - 1}.200`, 8_192)).refused).toBe('network')
    expect((await s.add('10.0.0.9', 8_192)).refused).toBe('network')
  }, 60_000)

  test('behavior: an IPv6 /48 is one network, whatever its /64s', async () => {
    const s = await open(kind)
    let owed = 0
    let refused: StoreRefusal | undefined
    for (let subnet = 1; refused !== 'network'; subnet++) {
      if (subnet > 8) throw new Error('the /48 was never refused as a network')
      const filled = await fill(s, `2001:db8:1:${subnet.toString(16)}::/64`, 65_536)
      owed += filled.kept
      refused = filled.refused
    }
    expect(owed).toBeLessThanOrEqual(DEFAULT_RELAY_MAX_TOTAL_BYTES / (NETWORK_SHARE_DIVISOR + 1) + 65_536)
    expect(owed).toBeGreaterThan(DEFAULT_RELAY_MAX_TOTAL_BYTES / (NETWORK_SHARE_DIVISOR + 1) - 65_536)
    expect((await s.add('2001:db8:2:1::/64', 65_536)).refused).toBeUndefined()
  })
})
