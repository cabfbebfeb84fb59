import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { recoverMessageAddress, toHex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { connect, type TestClient } from '../../test/client.js'
import { startBridge } from '../../test/server.js'
import {
  account,
  closeConnectors,
  createDapp,
  createWallet,
  nextEvent,
  pair,
} from '../../test/walletconnect.js'
import type { CreateBridgeServerParameters } from '../server.js'
import { createRedisBackend } from './redis.js'

// Several bridge nodes sharing one real redis-server, as behind a load balancer.
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  closeConnectors()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let run = 0
const prefix = () => `${redis.keyPrefix}${++run}:`
async function node(keyPrefix: string, parameters: CreateBridgeServerParameters = {}, url = redis.url) {
  const started = await startBridge({ backend: createRedisBackend({ url, keyPrefix }), ...parameters })
  cleanups.push(started.close)
  return started
}
async function client(url: string) {
  const c = await connect(url)
  cleanups.push(() => c.close())
  return c
}
// Once the round trip is back, the node has registered for the topic in Redis (same connection, in order).
const subscribed = async (c: TestClient, topic: string) => {
  c.sub(topic)
  await c.sync()
}

test('default', async () => {
  const keyPrefix = prefix()
  const a = await node(keyPrefix)
  const b = await node(keyPrefix)
  const publisher = await client(a.url)
  const onB = await client(b.url)
  const onA = await client(a.url)
  await subscribed(onB, 't')
  await subscribed(onA, 't')
  await subscribed(publisher, 't')
  const frame = publisher.pub('t', '{"data":"00"}', false)
  expect(await onB.next()).toBe(frame)
  expect(await onA.next()).toBe(frame)
  // A marker on the same path: a second copy of `frame` would have reached onB and onA before it.
  const marker = publisher.pub('t', 'marker')
  expect(await onB.next()).toBe(marker)
  expect(await onA.next()).toBe(marker)
  expect(await publisher.rest()).toEqual([])
  // Delivered, so not queued: a later subscriber on the publisher's node (same Redis connection) drains nothing.
  const late = await client(a.url)
  late.sub('t')
  expect(await late.rest()).toEqual([])
})

describe('behavior', () => {
  test('behavior: a node that subscribes later is reached although the publisher delivered locally', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const publisher = await client(a.url)
    const onA = await client(a.url)
    await subscribed(onA, 't')
    publisher.pub('t', 'first')
    await onA.next()
    // Node A has now checked: nobody else subscribes t, so it stops asking Redis for a while.
    publisher.pub('t', 'second')
    await onA.next()
    // Node A's Redis commands so far are done, so node B cannot legitimately receive `second` as a subscriber.
    await publisher.sync()
    const onB = await client(b.url)
    await subscribed(onB, 't')
    const frame = publisher.pub('t', 'third')
    expect(await onB.next()).toBe(frame)
    expect(await onA.next()).toBe(frame)
    const marker = publisher.pub('t', 'marker')
    expect(await onB.next()).toBe(marker)
  })

  test('behavior: frames published while a node lost its Redis channel reach it once it is back', async () => {
    if (process.env.REDIS_URL) return // killing connections of a shared Redis is not ours to do
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const wallet = await client(b.url)
    await subscribed(wallet, 't')
    const { Redis } = await import('ioredis')
    const admin = new Redis(redis.url)
    cleanups.push(() => admin.quit())
    await admin.client('KILL', 'TYPE', 'pubsub')
    const dapp = await client(a.url)
    const frame = dapp.pub('t', 'during the outage')
    expect(await wallet.next(3_000)).toBe(frame)
  })

  test('behavior: a message queued on node A is drained once by a subscriber on node B', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const dapp = await client(a.url)
    const frames = [dapp.pub('t', '1'), dapp.pub('t', '2')]
    await dapp.sync()
    const wallet = await client(b.url)
    wallet.sub('t')
    expect([await wallet.next(), await wallet.next()]).toEqual(frames)
    const late = await client(a.url)
    late.sub('t')
    expect(await late.rest()).toEqual([])
  })

  test('behavior: queued messages survive restarts of every node', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const dapp = await client(a.url)
    const frame = dapp.pub('t', 'kept in redis')
    await dapp.sync()
    await dapp.close()
    await a.close()
    await b.close()
    const a2 = await node(keyPrefix)
    const b2 = await node(keyPrefix)
    const wallet = await client(b2.url)
    wallet.sub('t')
    expect(await wallet.next()).toBe(frame)
    expect(a2.counts.delivered + b2.counts.delivered).toBe(1)
  })

  test('behavior: a subscriber that left its node has its messages queued for its return elsewhere', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const dapp = await client(a.url)
    const wallet = await client(b.url)
    await subscribed(wallet, 't')
    await wallet.close()
    await waitFor(() => b.counts.connections === 0, { message: 'node B saw the wallet leave' })
    const frame = dapp.pub('t', 'while away')
    await waitFor(() => a.counts.queued + b.counts.queued > 0, { message: 'the message queued' })
    const back = await client(a.url)
    back.sub('t')
    expect(await back.next()).toBe(frame)
  })

  test('behavior: 1.8.0 dapp on node A and wallet on node B: approve, sign, offline wallet returning on node A', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const { dapp, wallet } = await pair(a.url, b.url)
    const message = toHex('across nodes')
    const signature = await dapp.signPersonalMessage([message, account.address])
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(account.address)

    const session = wallet.session
    wallet.transportClose()
    await waitFor(() => b.counts.connections === 0, { message: 'node B saw the wallet leave' })
    const queued = a.counts.queued + b.counts.queued
    const later = toHex('while the wallet was offline')
    const signed = dapp.signPersonalMessage([later, account.address])
    await waitFor(() => a.counts.queued + b.counts.queued > queued, { message: 'the request queued' })
    createWallet({ session: { ...session, bridge: a.url } })
    expect(await recoverMessageAddress({ message: { raw: later }, signature: await signed })).toBe(
      account.address,
    )

    const disconnected = nextEvent<{ params: [{ message: string }] }>(dapp, 'disconnect')
    const restored = createWallet({ session: { ...session, bridge: b.url } })
    await waitFor(() => b.counts.subscriptions > 0, { message: 'the restored wallet subscribed on node B' })
    await restored.killSession()
    expect((await disconnected).params[0].message).toBe('Session disconnected')
  })

  test('behavior: 1.8.0 wallet connecting to node B after the dapp published on node A', async () => {
    const keyPrefix = prefix()
    const a = await node(keyPrefix)
    const b = await node(keyPrefix)
    const dapp = await createDapp(a.url)
    await waitFor(() => a.counts.queued > 0, { message: 'the session request queued' })
    const wallet = createWallet({ uri: dapp.uri, bridge: b.url })
    await nextEvent(wallet, 'session_request')
    const connected = nextEvent(dapp, 'connect')
    wallet.approveSession({ accounts: [account.address], chainId: 1 })
    await connected
  })

  test('behavior: webhooks registered on one node are called by another', async () => {
    const { createServer } = await import('node:http')
    const calls: string[] = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        calls.push(body)
        res.end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)))
    const port = (receiver.address() as { port: number }).port
    const keyPrefix = prefix()
    const a = await node(keyPrefix, { webhooks: { allowHosts: ['127.0.0.1'] } })
    const b = await node(keyPrefix, { webhooks: { allowHosts: ['127.0.0.1'] } })
    const response = await fetch(`${a.url}/subscribe`, {
      method: 'POST',
      body: JSON.stringify({ topic: 'w', webhook: `http://127.0.0.1:${port}/push` }),
    })
    expect(response.status).toBe(200)
    const dapp = await client(b.url)
    dapp.pub('w', 'x', false)
    await expect.poll(() => calls).toEqual(['{"topic":"w"}'])
  })
})

describe('error', () => {
  test('error: /health answers 503 once Redis is unreachable, and the node still relays locally', async () => {
    const own = await startRedis()
    cleanups.push(() => own.stop())
    const a = await node(`${own.keyPrefix}health:`, {}, own.url)
    expect((await fetch(`${a.url}/health`)).status).toBe(204)
    const sender = await client(a.url)
    const receiver = await client(a.url)
    await subscribed(receiver, 't')
    await own.stop()
    if (own.port === undefined) return // an external REDIS_URL is not ours to stop
    expect((await fetch(`${a.url}/health`)).status).toBe(503)
    const frame = sender.pub('t', 'local')
    expect(await receiver.next()).toBe(frame)
    await expect.poll(() => a.counts.backendErrors).toBeGreaterThan(0)
  })
})
