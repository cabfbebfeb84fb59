import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, test } from 'vitest'
import { createFakeSocket, type FakeSocket } from '../../test/fakeSocket.js'
import { createRelay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'
import type { RelayStore } from './store.js'

// Order and duplicates of v2 pushes across a Redis restart: two relays on a real redis-server, the subscriber on B.
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TOPIC = 'a'.repeat(64)

/**
 * A Redis store whose `recovered` waits for `release()` (the relay's re-read after a reconnect, held back so that a
 * live message can come first), counting the recoveries and the live messages from other nodes.
 */
function heldStore(store: RelayStore) {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const seen = { recoveries: 0, deliveries: 0, reads: 0 }
  const held: RelayStore = {
    ...store,
    pending: async (topic, clientId, now) => {
      const kept = await store.pending(topic, clientId, now)
      seen.reads++
      return kept
    },
    start: (context) =>
      store.start({
        ...context,
        deliver: (message) => {
          seen.deliveries++
          context.deliver(message)
        },
        recovered: () => {
          seen.recoveries++
          gate.then(context.recovered)
        },
      }),
  }
  return { store: held, seen, release }
}

async function setUp(persistent: boolean) {
  const redis: TestRedis = await startRedis({ persistent })
  cleanups.push(() => redis.stop())
  const inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 })
  cleanups.push(async () => inspect.disconnect())
  const keyPrefix = redis.keyPrefix
  const a = createRelay({ store: createRedisRelayStore({ url: redis.url, keyPrefix }) })
  const b = heldStore(createRedisRelayStore({ url: redis.url, keyPrefix }))
  const relayB = createRelay({ store: b.store })
  for (const relay of [a, relayB]) cleanups.push(() => relay.close())
  await Promise.all([a.start(), relayB.start()])
  const wallet = createFakeSocket('wallet')
  relayB
    .connect(wallet, 'did:key:wallet')
    .receive(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: TOPIC } }), 0)
  await waitFor(() => wallet.sent.length === 1, { message: 'subscribed' })
  const dapp = createFakeSocket('dapp')
  const publisher = a.connect(dapp, 'did:key:dapp')
  let id = 100
  /** Publishes `message` on node A; resolves once A answered (kept, and handed to the registered nodes). */
  const publish = async (message: string) => {
    const answers = dapp.sent.length
    publisher.receive(
      JSON.stringify({
        id: ++id,
        jsonrpc: '2.0',
        method: 'irn_publish',
        params: { topic: TOPIC, message, ttl: 300 },
      }),
      0,
    )
    await waitFor(() => dapp.sent.length > answers, { message: `${message} published` })
    expect(JSON.parse(dapp.sent.at(-1) as string)).toMatchObject({ result: true })
  }
  /** Both nodes back on Redis after a restart. */
  const back = () =>
    waitFor(async () => (await a.isHealthy()) && (await relayB.isHealthy()), { message: 'nodes back' })
  return { redis, inspect, keyPrefix, b, wallet, publish, back }
}

/** The messages pushed to `socket`, in the order they came. */
const pushed = (socket: FakeSocket) =>
  socket.sent
    .map((frame) => JSON.parse(frame))
    .filter((frame) => frame.method === 'irn_subscription')
    .map((frame) => frame.params.data.message as string)

describe('behavior', () => {
  test('behavior: a message kept while the node was not registered is pushed before a later one that came live during the recovery', async () => {
    const { redis, inspect, keyPrefix, b, wallet, publish, back } = await setUp(false)
    await redis.restart()
    await inspect.connect()
    await back()
    // B is back on Redis and registered again; its re-read of the mailbox is held back.
    await waitFor(() => b.seen.recoveries > 0, { message: 'node B recovering' })
    // The first message lands before B's registration (as when node A publishes in the moment Redis is back and B
    // has not registered yet): it is only kept.
    const nodes = await inspect.smembers(`${keyPrefix}s:${TOPIC}`)
    expect(nodes).toHaveLength(1)
    await inspect.del(`${keyPrefix}s:${TOPIC}`)
    await publish('first')
    await inspect.sadd(`${keyPrefix}s:${TOPIC}`, ...nodes)
    // The second comes to B live, before B re-read what is kept.
    await publish('second')
    await waitFor(() => b.seen.deliveries === 1, { message: 'second reached node B' })
    b.release()
    await waitFor(() => pushed(wallet).includes('first') && pushed(wallet).includes('second'), {
      message: 'both pushed',
    })
    await publish('third')
    await waitFor(() => pushed(wallet).includes('third'), { message: 'third pushed' })
    // In publish order, each once.
    expect(pushed(wallet)).toEqual(['first', 'second', 'third'])
  })

  test('behavior: a push awaiting its ack when Redis restarts is not pushed again by the recovery', async () => {
    const { redis, b, wallet, publish, back } = await setUp(true)
    await publish('before')
    await waitFor(() => pushed(wallet).length === 1, { message: 'pushed before the restart' })
    // Not acked yet: still owed to the wallet in the restarted Redis.
    await redis.restart()
    await back()
    await waitFor(() => b.seen.recoveries > 0, { message: 'node B recovering' })
    const reads = b.seen.reads
    b.release()
    // The relay pushes what the re-read found as soon as it has it.
    await waitFor(() => b.seen.reads > reads, { message: 'kept messages re-read' })
    await publish('after')
    await waitFor(() => pushed(wallet).includes('after'), { message: 'a message after the restart pushed' })
    expect(pushed(wallet)).toEqual(['before', 'after'])
  })
})
