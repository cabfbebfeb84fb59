import { request } from 'node:http'
import { connect as connectTcp, type Socket as TcpSocket } from 'node:net'
import { waitFor } from '@pairlink/test-kit'
import { Redis } from 'ioredis'
import { describe, expect, test } from 'vitest'
import { connect, type TestClient } from '../test/client.js'
import { useCleanups, useRedis } from '../test/fixtures.js'
import { startBridge } from '../test/server.js'
import type { Backend } from './backends/backend.js'
import { createMemoryBackend } from './backends/memory.js'
import { createRedisBackend } from './backends/redis.js'
import type { CreateBridgeServerParameters } from './server.js'

// One abusive address against everyone else's: real sockets from distinct loopback addresses (127.0.0.0/8).
const ABUSER = '127.0.0.1'
const VICTIM = '127.0.0.2'
const PEER = '127.0.0.3'

const redis = useRedis()
const cleanups = useCleanups()

async function bridge(parameters: CreateBridgeServerParameters) {
  const started = await startBridge(parameters)
  cleanups.push(started.close)
  return started
}
async function client(url: string, localAddress: string) {
  const c = await connect(url, { localAddress })
  cleanups.push(() => c.close())
  return c
}

const frameOf = (bytes: number) => 'x'.repeat(bytes)

/** 256 sockets of one address, each within the per-socket limits, each queueing `perSocket` frames on topics of its own. */
async function flood(url: string, perSocket: number, bytes: number) {
  const sockets: TestClient[] = []
  for (let i = 0; i < 256; i++) sockets.push(await client(url, ABUSER))
  const payload = frameOf(bytes)
  sockets.forEach((socket, i) => {
    for (let j = 0; j < perSocket; j++) socket.pub(`abuse:${i}:${j}`, payload)
  })
  return sockets
}

const backends: [string, (cap: number) => Backend][] = [
  ['memory', (cap) => createMemoryBackend({ maxTotalQueuedBytes: cap })],
  [
    'redis',
    (cap) =>
      createRedisBackend({
        url: redis().url,
        keyPrefix: `${redis().keyPrefix}${Math.random()}:`,
        maxTotalQueuedBytes: cap,
      }),
  ],
]

describe.each(backends)('%s', (name, backendOf) => {
  test(`behavior: one address with 256 sockets cannot evict another address's queued message (${name})`, async () => {
    const cap = 1_048_576
    const b = await bridge({ backend: backendOf(cap), maxMessagesPerSecondPerIp: 0 })
    const victim = await client(b.url, VICTIM)
    const queued = victim.pub('victim', 'kept')
    await victim.sync()
    expect(b.counts.queued).toBe(2) // the victim's frame and its sync marker
    // 256 × 16 frames of 4 KiB: 16 MiB offered, 16 times the total cap.
    await flood(b.url, 16, 4_096)
    await waitFor(() => b.counts.published >= 2 + 256 * 16, { timeout: 20_000 })
    // Precondition: the cap was reached, so something was evicted or refused.
    await waitFor(() => b.counts.dropped > 0, { timeout: 5_000 })
    const peer = await client(b.url, PEER)
    peer.sub('victim')
    expect(await peer.next()).toBe(queued)
  }, 60_000)
})

test('behavior: the Redis backend bounds the bytes queued over all topics', async () => {
  const keyPrefix = `${redis().keyPrefix}total:`
  const cap = 1_048_576
  const b = await bridge({
    backend: createRedisBackend({ url: redis().url, keyPrefix, maxTotalQueuedBytes: cap }),
    maxMessagesPerSecondPerIp: 0,
  })
  await flood(b.url, 8, 4_096)
  await waitFor(() => b.counts.published >= 256 * 8, { timeout: 20_000 })
  await waitFor(() => b.counts.queued + b.counts.dropped >= 256 * 8, { timeout: 20_000 })
  const inspect = new Redis(redis().url)
  try {
    let total = 0
    let cursor = '0'
    do {
      const [next, keys] = await inspect.scan(cursor, 'MATCH', `${keyPrefix}qb:*`, 'COUNT', 1000)
      cursor = next
      for (const key of keys) total += Number(await inspect.get(key))
    } while (cursor !== '0')
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(cap)
  } finally {
    inspect.disconnect()
  }
}, 60_000)

test.each(backends)(
  'behavior: one address queues at most maxQueuedBytesPerIp; another address still queues (%s)',
  async (_, backendOf) => {
    const b = await bridge({
      backend: backendOf(1 << 30),
      maxQueuedBytesPerIp: 65_536,
      maxMessagesPerSecondPerIp: 0,
    })
    const abuser = await client(b.url, ABUSER)
    for (let i = 0; i < 64; i++) abuser.pub(`abuse:${i}`, frameOf(4_096))
    await abuser.sync()
    // 64 × 4 KiB offered against a 64 KiB budget: about half refused.
    expect(b.counts.refusedQueuedBytesPerIp).toBeGreaterThan(16)
    const victim = await client(b.url, VICTIM)
    const queued = victim.pub('victim', frameOf(4_096))
    await victim.sync()
    const peer = await client(b.url, PEER)
    peer.sub('victim')
    expect(await peer.next()).toBe(queued)
  },
)

test('behavior: the sockets of one address share maxMessagesPerSecondPerIp', async () => {
  const b = await bridge({ maxMessagesPerSecondPerIp: 0.001, messageBurstPerIp: 10 })
  const first = await client(b.url, ABUSER)
  const second = await client(b.url, ABUSER)
  for (let i = 0; i < 5; i++) first.pub('t', String(i))
  await first.sync()
  // 5 pubs + the sync marker's pub and sub from the first socket: 7 of the address's 10.
  for (let i = 0; i < 5; i++) second.pub('t', String(i))
  const closed = await second.closed
  expect(closed).toEqual({ code: 1008, reason: 'Rate limit exceeded' })
  expect(b.counts.refusedRateLimitPerIp).toBeGreaterThan(0)
  // Another address is not affected.
  const victim = await client(b.url, VICTIM)
  await victim.sync()
})

/** `POST /subscribe` from `localAddress`; resolves with the status. */
function postSubscribe(url: string, localAddress: string) {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${url}/subscribe`, { method: 'POST', localAddress }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end(JSON.stringify({ topic: 't', webhook: 'http://127.0.0.1:1/push' }))
  })
}

test('error: POST /subscribe beyond the per-address rate is answered 429; another address is not affected', async () => {
  const b = await bridge({ maxWebhookRegistrationsPerMinutePerIp: 3 })
  // A loopback webhook is refused with 400 after the rate check: each call still costs one registration.
  for (let i = 0; i < 3; i++) expect(await postSubscribe(b.url, ABUSER)).toBe(400)
  expect(await postSubscribe(b.url, ABUSER)).toBe(429)
  expect(b.counts.refusedWebhookRegistrations).toBe(1)
  expect(await postSubscribe(b.url, VICTIM)).toBe(400)
})

test('error: half-open connections count against maxConnectionsPerIp', async () => {
  const b = await bridge({ maxConnectionsPerIp: 4 })
  const halfOpen: TcpSocket[] = []
  cleanups.push(() => {
    for (const socket of halfOpen) socket.destroy()
  })
  // Four TCP connections that never send their upgrade request.
  for (let i = 0; i < 4; i++)
    halfOpen.push(
      await new Promise<TcpSocket>((resolve, reject) => {
        const socket = connectTcp({ port: b.port, host: '127.0.0.1', localAddress: ABUSER }, () =>
          resolve(socket),
        )
        socket.on('error', reject)
      }),
    )
  await waitFor(() => b.counts.connectionsPending === 4 || undefined)
  await expect(connect(b.url, { localAddress: ABUSER })).rejects.toThrow()
  expect(b.counts.connectionsRefused).toBe(1)
  const victim = await client(b.url, VICTIM)
  await victim.sync()
  // Closing one half-open connection gives its slot back.
  halfOpen.pop()?.destroy()
  await waitFor(() => b.counts.connectionsPending === 3 || undefined)
  const again = await client(b.url, ABUSER)
  await again.sync()
})

test('behavior: two peers at 120 messages/s each way, acking every frame as 1.8.0 does, lose nothing', async () => {
  const b = await bridge({})
  const dapp = await client(b.url, ABUSER)
  const wallet = await client(b.url, VICTIM)
  // 1.8.0 acks every frame it receives, on the frame's topic.
  for (const c of [dapp, wallet])
    c.ws.on('message', (data) => {
      const { topic } = JSON.parse(String(data)) as { topic: string }
      c.send({ topic, type: 'ack', payload: '', silent: true })
    })
  dapp.sub('dapp')
  wallet.sub('wallet')
  await Promise.all([dapp.sync(), wallet.sync()])
  const total = 650
  let sent = 0
  await new Promise<void>((resolve) => {
    const started = performance.now()
    const tick = setInterval(() => {
      // 120 per second each way, however late the timer fires.
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * 120))
      for (; sent < due; sent++) {
        dapp.pub('wallet', `d${sent}`)
        wallet.pub('dapp', `w${sent}`)
      }
      if (sent === total) {
        clearInterval(tick)
        resolve()
      }
    }, 5)
  })
  await waitFor(() => (dapp.received.length >= total && wallet.received.length >= total) || undefined, {
    timeout: 5_000,
  }).catch(() => undefined)
  expect({ atDapp: dapp.received.length, atWallet: wallet.received.length }).toEqual({
    atDapp: total,
    atWallet: total,
  })
  expect(b.counts.refusedRateLimit + b.counts.refusedRateLimitPerIp).toBe(0)
}, 20_000)
