import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createFakeSocket, type FakeSocket } from '../../test/fakeSocket.js'
import { createRedisBackend } from '../backends/redis.js'
import { silentLogger } from '../logger.js'
import { createBridgeMetrics } from '../metrics.js'
import { createRelay, type Relay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'

// What a message costs Redis when a reader acks it at once (nothing), and what still holds when nobody does: kept,
// answered only once kept, read by a node started after every other one stopped, and reaching a node that registers
// for the topic while it is held back. Real redis-server, relays over fake sockets (the relay's own seam).
let redis: TestRedis
let inspect: Redis
beforeAll(async () => {
  redis = await startRedis()
  inspect = new Redis(redis.url, { maxRetriesPerRequest: 0 })
})
afterAll(async () => {
  inspect.disconnect()
  await redis.stop()
})
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let run = 0
let nextId = 1
const TOPIC = 'c'.repeat(64)

// A relay on the Redis store; with `linked`, lent the node links of a v1 Redis backend started beside it (as the
// server and the CLI run it), the v1 keys under `{prefix}v1:`.
async function node(keyPrefix: string, writeDelayMs?: number, linked = false) {
  const backend = linked ? createRedisBackend({ url: redis.url, keyPrefix: `${keyPrefix}v1:` }) : undefined
  await backend?.start({
    counts: createBridgeMetrics().counts,
    logger: silentLogger,
    queue: { ttlSeconds: 60, maxQueueLength: 100, maxQueuedBytes: 1 << 20, maxQueuedBytesPerOwner: 1 << 30 },
    webhooks: { maxPerTopic: 2, ttlSeconds: 60 },
    deliver: () => 0,
  })
  const relay: Relay = createRelay({
    store: createRedisRelayStore({
      url: redis.url,
      keyPrefix,
      links: backend?.relayLinks,
      ...(writeDelayMs === undefined ? {} : { writeDelayMs }),
    }),
  })
  await relay.start()
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await relay.close()
    await backend?.close()
  }
  cleanups.push(close)
  return { relay, close }
}

type Client = {
  socket: FakeSocket
  send(method: string, params: unknown): number
  /** Publishes `message` on the test's topic; returns the request's id. */
  publish(message: string): number
  frames(): { id?: number; result?: unknown }[]
}
function client(relay: Relay, clientId: string): Client {
  const socket = createFakeSocket(clientId)
  const connection = relay.connect(socket, clientId)
  return {
    socket,
    send(method, params) {
      const id = nextId++
      connection.receive(JSON.stringify({ id, jsonrpc: '2.0', method, params }), 0)
      return id
    },
    publish(message) {
      return this.send('irn_publish', { topic: TOPIC, message, ttl: 300 })
    },
    frames: () => socket.sent.map((text) => JSON.parse(text)),
  }
}
// A reader that acks every push as the SDK does (`acking` false: none).
function reader(relay: Relay, clientId: string, acking = true) {
  const socket = createFakeSocket(clientId)
  const connection = relay.connect(socket, clientId)
  const send = socket.send
  socket.send = (text) => {
    const ok = send(text)
    const frame = JSON.parse(text)
    if (acking && frame.method === 'irn_subscription')
      queueMicrotask(() => connection.receive(`{"id":${frame.id},"jsonrpc":"2.0","result":true}`, 0))
    return ok
  }
  const id = nextId++
  connection.receive(
    JSON.stringify({ id, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: TOPIC } }),
    0,
  )
  const pushed = () =>
    socket.sent
      .map((text) => JSON.parse(text))
      .filter((frame) => frame.method === 'irn_subscription')
      .map((frame) => frame.params.data.message as string)
  return {
    socket,
    pushed,
    subscribed: () => waitFor(() => socket.sent.length > 0, { message: 'subscribed' }),
    close: () => connection.close(),
  }
}
const answered = (c: Client, id: number) =>
  waitFor(() => c.frames().some((frame) => frame.id === id), { message: `answer ${id}` })
const kept = async (keyPrefix: string) => inspect.zcard(`${keyPrefix}x`)

describe('writeDelayMs', () => {
  test('behavior: messages a reader acks at once are answered and never written to Redis', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const { relay } = await node(keyPrefix)
    const wallet = reader(relay, 'did:key:wallet')
    await wallet.subscribed()
    const dapp = client(relay, 'did:key:dapp')
    // The first message of a topic is written at once (it tells the node no other one subscribes the topic).
    await answered(dapp, dapp.publish('first'))
    expect(await kept(keyPrefix)).toBe(1)
    const ids = Array.from({ length: 20 }, (_, i) => dapp.publish(`m${i}`))
    for (const id of ids) await answered(dapp, id)
    expect(wallet.pushed()).toEqual(['first', ...ids.map((_, i) => `m${i}`)])
    expect(
      dapp
        .frames()
        .filter((frame) => ids.includes(frame.id ?? 0))
        .every((frame) => frame.result === true),
    ).toBe(true)
    // Only the first is in Redis: 20 delivered messages cost it nothing.
    expect(await kept(keyPrefix)).toBe(1)
    expect(await inspect.zcard(`${keyPrefix}t:${TOPIC}`)).toBe(1)
  })

  test('behavior: a message nobody acks is answered once written, and a node started after the first stopped pushes it', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const first = await node(keyPrefix)
    const dapp = client(first.relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('warm'))
    // Held back now (no other node), and nobody reads: it is written within the delay, then answered.
    const id = dapp.publish('offline')
    expect(dapp.frames().some((frame) => frame.id === id)).toBe(false)
    await answered(dapp, id)
    expect(await kept(keyPrefix)).toBe(2)
    await first.close()
    const second = await node(keyPrefix)
    const wallet = reader(second.relay, 'did:key:wallet')
    await waitFor(() => wallet.pushed().length === 2, { message: 'both pushed' })
    expect(wallet.pushed()).toEqual(['warm', 'offline'])
  })

  test('behavior: a node that registers for the topic while messages are held back gets them, in order', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    // A long delay: without the registration's announcement the messages would stay in A's memory past the test.
    const a = await node(keyPrefix, 60_000)
    const b = await node(keyPrefix)
    // A reader on A that never acks: what A pushes it is held back.
    await reader(a.relay, 'did:key:local', false).subscribed()
    const dapp = client(a.relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('m0'))
    const ids = ['m1', 'm2', 'm3'].map((message) => dapp.publish(message))
    expect(await kept(keyPrefix)).toBe(1)
    const wallet = reader(b.relay, 'did:key:wallet')
    await waitFor(() => wallet.pushed().length === 4, { message: 'all four pushed on B' })
    expect(wallet.pushed()).toEqual(['m0', 'm1', 'm2', 'm3'])
    for (const id of ids) await answered(dapp, id)
    // Later messages reach B at once, through Redis, since A now knows B subscribes the topic.
    dapp.publish('m4')
    await waitFor(() => wallet.pushed().length === 5, { message: 'm4 pushed on B' })
  })

  test('behavior: messages read at once are not written though a message of their topic is being written', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const { relay } = await node(keyPrefix)
    const wallet = reader(relay, 'did:key:wallet')
    await wallet.subscribed()
    const dapp = client(relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('first'))
    // The wallet's own message has no other reader: written at once. The dapp's, sent while that write is on its way,
    // are read and acked at once: held back, never written (a busy topic used to be written message after message).
    const walletsOwn = client(relay, 'did:key:wallet')
    const own = walletsOwn.publish('own')
    const ids = Array.from({ length: 10 }, (_, i) => dapp.publish(`m${i}`))
    await answered(walletsOwn, own)
    for (const id of ids) await answered(dapp, id)
    expect(await kept(keyPrefix)).toBe(2)
  })

  test('behavior: a message nobody reads now is written and answered at once, however long the delay', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const { relay } = await node(keyPrefix, 60_000)
    const dapp = client(relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('first'))
    // A proposal before the wallet scans, a request to a wallet offline: nobody to ack it, so nothing to wait for (held
    // back, it would be answered a minute later, long after `answered` gives up).
    await answered(dapp, dapp.publish('unread'))
    expect(await kept(keyPrefix)).toBe(2)
  })

  test('behavior: with writeDelayMs 0 every message is written (acked or not)', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const { relay } = await node(keyPrefix, 0)
    const wallet = reader(relay, 'did:key:wallet')
    await wallet.subscribed()
    const dapp = client(relay, 'did:key:dapp')
    const ids = Array.from({ length: 5 }, (_, i) => dapp.publish(`m${i}`))
    for (const id of ids) await answered(dapp, id)
    await waitFor(() => wallet.pushed().length === 5, { message: 'pushed' })
    expect(await kept(keyPrefix)).toBe(5)
  })
})

describe('writeDelayMs across nodes linked by the v1 backend', () => {
  test('behavior: messages read at once on the other node are answered and never written to Redis', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const a = await node(keyPrefix, undefined, true)
    const b = await node(keyPrefix, undefined, true)
    const wallet = reader(b.relay, 'did:key:wallet')
    await wallet.subscribed()
    const dapp = client(a.relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('first'))
    await waitFor(() => wallet.pushed().length === 1, { message: 'first pushed on B' })
    const ids = Array.from({ length: 20 }, (_, i) => dapp.publish(`m${i}`))
    for (const id of ids) await answered(dapp, id)
    expect(wallet.pushed()).toEqual(['first', ...ids.map((_, i) => `m${i}`)])
    // Only the first is in Redis; the others crossed the link and their acks came back over it.
    expect(await kept(keyPrefix)).toBe(1)
  })

  test('behavior: a reader that reconnects to the other node before the message is written gets it again', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    // Held back on A for a minute: the reader's new socket on B can only have it from what B received.
    const a = await node(keyPrefix, 60_000, true)
    const b = await node(keyPrefix, undefined, true)
    const first = reader(b.relay, 'did:key:wallet', false)
    await first.subscribed()
    const dapp = client(a.relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('first'))
    await waitFor(() => first.pushed().length === 1, { message: 'first pushed' })
    const id = dapp.publish('held')
    await waitFor(() => first.pushed().length === 2, { message: 'held pushed' })
    // Closed without acking it; another client keeps B subscribed to the topic, so B registers nothing again.
    const other = reader(b.relay, 'did:key:other', false)
    await other.subscribed()
    first.close()
    const again = reader(b.relay, 'did:key:wallet')
    await waitFor(() => again.pushed().length === 2, { message: 'both pushed again' })
    expect(again.pushed()).toEqual(['first', 'held'])
    // Its ack on B reaches A, which answers the publish: never written.
    await answered(dapp, id)
    expect(await kept(keyPrefix)).toBe(1)
  })

  test('behavior: a message nobody acks is written after the delay and reaches a node that subscribes later', async () => {
    const keyPrefix = `${redis.keyPrefix}${++run}:`
    const a = await node(keyPrefix, 100, true)
    const b = await node(keyPrefix, undefined, true)
    const silent = reader(b.relay, 'did:key:silent', false)
    await silent.subscribed()
    const dapp = client(a.relay, 'did:key:dapp')
    await answered(dapp, dapp.publish('first'))
    await answered(dapp, dapp.publish('second'))
    expect(silent.pushed()).toEqual(['first', 'second'])
    expect(await kept(keyPrefix)).toBe(2)
    const c = await node(keyPrefix, undefined, true)
    const late = reader(c.relay, 'did:key:late')
    await waitFor(() => late.pushed().length === 2, { message: 'both pushed on C' })
    expect(late.pushed()).toEqual(['first', 'second'])
  })
})
