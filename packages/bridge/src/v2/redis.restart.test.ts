import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { toHex } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { createFakeSocket } from '../../test/fakeSocket.js'
import { account, chainId, closeClients, pairClients } from '../../test/signClient.js'
import { createBridgeServer } from '../server.js'
import { createRelay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'

// Redis restarted under a live v2 session (with its data, and empty), and every node restarted on one Redis.
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await closeClients()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function redisFor(persistent: boolean) {
  const redis = await startRedis({ persistent })
  cleanups.push(() => redis.stop())
  const inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 })
  cleanups.push(async () => inspect.disconnect())
  return { redis, inspect }
}

/** A bridge node whose v2 relay uses the Redis store; on `port` (0: a free one). */
async function node(redis: TestRedis, keyPrefix: string, port = 0) {
  const server = createBridgeServer({
    relay: { store: createRedisRelayStore({ url: redis.url, keyPrefix }) },
  })
  const { url, port: bound } = await server.listen(port, '127.0.0.1')
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= server.close()
    return closing
  }
  cleanups.push(close)
  return { ...server, url: url.replace('http', 'ws'), port: bound, close }
}

type Paired = Awaited<ReturnType<typeof pairClients>>
const answerRequests = (wallet: Paired['wallet'], result: string) =>
  wallet.on('session_request', ({ id, topic }) => {
    wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })
const request = (dapp: Paired['dapp'], topic: string, text: string) =>
  dapp.request<string>({
    topic,
    chainId,
    request: { method: 'personal_sign', params: [toHex(text), account.address] },
  })

/**
 * Two nodes on `redis` under `keyPrefix`, the dapp on A and the wallet on B, settled; then the wallet goes offline and
 * the dapp sends `text`, which the relay keeps. The wallet answers `result` once back.
 */
async function keptRequest(redis: TestRedis, keyPrefix: string, result: string, text: string) {
  const a = await node(redis, keyPrefix)
  const b = await node(redis, keyPrefix)
  const { dapp, wallet, session } = await pairClients(a.url, b.url)
  await waitFor(() => wallet.session.get(session.topic).acknowledged, {
    message: 'wallet session acknowledged',
  })
  await wallet.core.relayer.transportClose()
  answerRequests(wallet, result)
  const published = a.relay?.counts.publishes ?? 0
  const answer = request(dapp, session.topic, text)
  await waitFor(() => (a.relay?.counts.publishes ?? 0) > published, { message: 'request kept' })
  return { a, b, dapp, wallet, session, answer }
}

describe('behavior', () => {
  test('behavior: Redis restarted with its data mid-session: a request kept before the restart reaches the wallet on the other node', async () => {
    const { redis } = await redisFor(true)
    const { a, b, dapp, wallet, session, answer } = await keptRequest(
      redis,
      `${redis.keyPrefix}kept:`,
      '0x01',
      'before the restart',
    )
    await redis.restart()
    await waitFor(() => a.relay?.isHealthy() ?? false, { message: 'node A back on Redis' })
    await waitFor(() => b.relay?.isHealthy() ?? false, { message: 'node B back on Redis' })
    await wallet.core.relayer.transportOpen()
    expect(await answer).toBe('0x01')
    // And the session keeps working both ways after the restart.
    expect(await request(dapp, session.topic, 'after the restart')).toBe('0x01')
  })

  test('behavior: Redis restarted empty mid-session: the subscriptions come back and a request sent after is answered', async () => {
    const { redis, inspect } = await redisFor(false)
    const keyPrefix = `${redis.keyPrefix}empty:`
    const a = await node(redis, keyPrefix)
    const b = await node(redis, keyPrefix)
    const { dapp, wallet, session } = await pairClients(a.url, b.url)
    await waitFor(() => wallet.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })
    answerRequests(wallet, '0x02')
    expect(await request(dapp, session.topic, 'before')).toBe('0x02')
    await redis.restart()
    await inspect.connect()
    // Both nodes register the session topic again (each has one of its subscribers).
    await waitFor(async () => (await inspect.scard(`${keyPrefix}s:${session.topic}`)) === 2, {
      message: 'subscriptions restored',
    })
    expect(await request(dapp, session.topic, 'after')).toBe('0x02')
  })

  test('behavior: every node restarted on the same Redis: the kept request is delivered when the wallet reconnects', async () => {
    const { redis } = await redisFor(false)
    const keyPrefix = `${redis.keyPrefix}nodes:`
    const { a, b, dapp, wallet, answer } = await keptRequest(
      redis,
      keyPrefix,
      '0x03',
      'kept across node restarts',
    )
    await dapp.core.relayer.transportClose()
    await Promise.all([a.close(), b.close()])
    // New processes' worth of state: new relays, new node ids, the same ports and Redis.
    await node(redis, keyPrefix, a.port)
    await node(redis, keyPrefix, b.port)
    await Promise.all([dapp.core.relayer.transportOpen(), wallet.core.relayer.transportOpen()])
    expect(await answer).toBe('0x03')
  })

  test('behavior: a node back on Redis pushes its sockets what was kept while it could not be reached', async () => {
    const { redis, inspect } = await redisFor(false)
    const keyPrefix = `${redis.keyPrefix}lost:`
    const relays = [0, 1].map(() =>
      createRelay({ store: createRedisRelayStore({ url: redis.url, keyPrefix }) }),
    ) as [ReturnType<typeof createRelay>, ReturnType<typeof createRelay>]
    for (const relay of relays) cleanups.push(() => relay.close())
    await Promise.all(relays.map((relay) => relay.start()))
    const topic = 'e'.repeat(64)
    const socket = createFakeSocket('1')
    relays[1]
      .connect(socket, 'did:key:wallet')
      .receive(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic } }), 0)
    await waitFor(() => socket.sent.length === 1, { message: 'subscribed' })
    // Node B's registration is lost (as when its channel had no listener during a reconnect): a publish on node A
    // is only kept.
    await inspect.connect()
    await inspect.del(`${keyPrefix}s:${topic}`)
    const publisher = createFakeSocket('2')
    relays[0].connect(publisher, 'did:key:dapp').receive(
      JSON.stringify({
        id: 2,
        jsonrpc: '2.0',
        method: 'irn_publish',
        params: { topic, message: 'kept meanwhile', ttl: 300 },
      }),
      0,
    )
    await waitFor(() => publisher.sent.length === 1, { message: 'published' })
    expect(socket.sent).toHaveLength(1)
    // Node B's connections drop and come back: it registers again and pushes what is kept for its sockets.
    await inspect.client('KILL', 'TYPE', 'pubsub')
    await waitFor(() => socket.sent.length === 2, { message: 'pushed after recovery' })
    expect(JSON.parse(socket.sent[1] as string).params.data.message).toBe('kept meanwhile')
    expect(await inspect.scard(`${keyPrefix}s:${topic}`)).toBe(1)
  })
})

describe('error', () => {
  test('error: with Redis away a request is answered -32603 and counted; the socket and process carry on', async () => {
    const { redis } = await redisFor(false)
    const relay = createRelay({
      store: createRedisRelayStore({ url: redis.url, keyPrefix: redis.keyPrefix }),
    })
    cleanups.push(() => relay.close())
    await relay.start()
    const socket = createFakeSocket('1')
    const connection = relay.connect(socket, 'did:key:dapp')
    await redis.stop()
    const topic = 'f'.repeat(64)
    connection.receive(
      JSON.stringify({
        id: '1',
        jsonrpc: '2.0',
        method: 'irn_publish',
        params: { topic, message: 'm', ttl: 60 },
      }),
      0,
    )
    connection.receive(
      JSON.stringify({ id: '2', jsonrpc: '2.0', method: 'irn_subscribe', params: { topic } }),
      0,
    )
    connection.receive(JSON.stringify({ id: '3', jsonrpc: '2.0', method: 'irn_subscribe', params: {} }), 0)
    await waitFor(() => socket.sent.length === 3, { message: 'all three answered' })
    // In request order, though the first two waited on Redis and the third did not.
    expect(socket.sent.map((frame) => JSON.parse(frame))).toEqual([
      { id: '1', jsonrpc: '2.0', error: { code: -32603, message: expect.stringMatching(/try again/) } },
      { id: '2', jsonrpc: '2.0', error: { code: -32603, message: expect.stringMatching(/try again/) } },
      { id: '3', jsonrpc: '2.0', error: expect.objectContaining({ code: -32602 }) },
    ])
    expect(relay.counts.storeErrors).toBeGreaterThanOrEqual(2)
    expect(await relay.isHealthy()).toBe(false)
  })
})
