import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { freePort, waitFor } from '@pairlink/test-kit'
import { Redis } from 'ioredis'
import { expect, test } from 'vitest'
import { connect, type TestClient } from '../../test/client.js'
import { useCleanups, useRedis } from '../../test/fixtures.js'
import { startBridge } from '../../test/server.js'
import { createRedisBackend } from './redis.js'

// Order of v1 frames while a node loses Redis and gets it back: the node reaches a real redis-server through a TCP
// proxy the test can stall (frames already sent get no answer), take down (connections refused) and bring back.
const redis = useRedis()
const cleanups = useCleanups()

/** A TCP proxy to `port` on 127.0.0.1. */
async function proxyTo(port: number) {
  const sockets = new Set<Socket>()
  const state = { stalled: false, stalledBytes: 0, holdOn: '', heldChunks: 0, watch: '', seen: 0 }
  // Sends of connections that sent `holdOn`, held back (in order) until `release()`.
  const holding = new Map<Socket, Buffer[]>()
  const upstreams = new Map<Socket, Socket>()
  const listenPort = await freePort()
  let server: Server | undefined
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(port, '127.0.0.1')
        upstreams.set(client, upstream)
        const end = () => {
          for (const socket of [client, upstream]) {
            socket.destroy()
            sockets.delete(socket)
          }
        }
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', end)
          socket.on('error', end)
        }
        client.on('data', (chunk: Buffer) => {
          if (state.stalled) {
            state.stalledBytes += chunk.length
            return
          }
          const held = holding.get(client)
          if (held) {
            held.push(chunk)
            return
          }
          const at = state.holdOn === '' ? -1 : chunk.indexOf(state.holdOn)
          if (at < 0) return upstream.write(chunk)
          // Held from the command that names it on (a RESP array starts a line); the commands before it go on.
          const start = chunk.lastIndexOf('\r\n*', at)
          const from = start < 0 ? 0 : start + 2
          upstream.write(chunk.subarray(0, from))
          holding.set(client, [chunk.subarray(from)])
          state.heldChunks++
        })
        client.on('close', () => {
          holding.delete(client)
          upstreams.delete(client)
        })
        upstream.on('data', (chunk: Buffer) => {
          if (state.watch !== '' && chunk.includes(state.watch)) state.seen++
          client.write(chunk)
        })
      })
      server.listen(listenPort, '127.0.0.1', resolve)
    })
  await up()
  return {
    url: `redis://127.0.0.1:${listenPort}`,
    state,
    /** What clients send from now on is swallowed: it never reaches Redis, and nothing answers it. */
    stall() {
      state.stalled = true
    },
    /** Redis "goes away": every connection dropped, new ones refused. */
    down: () =>
      new Promise<void>((resolve) => {
        server?.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        state.stalled = false
      }),
    up,
    /** From now on, a connection's sends are held back from the first command that contains `text` on. */
    holdOn(text: string) {
      state.holdOn = text
    },
    /** Sends what was held back, and lets everything through again. */
    release() {
      state.holdOn = ''
      for (const [client, chunks] of holding) {
        holding.delete(client)
        const upstream = upstreams.get(client)
        for (const chunk of chunks) upstream?.write(chunk)
      }
    },
  }
}

const payloads = (client: TestClient) =>
  client.received.map((frame) => (JSON.parse(frame) as { payload: string }).payload)

test('behavior: a frame whose send to Redis failed late is sent again before the frames published after it', async () => {
  const proxy = await proxyTo(redis().port as number)
  cleanups.push(() => proxy.down())
  const keyPrefix = `${redis().keyPrefix}held:`
  // How often the node's connections were retried: the first retry waits long enough for a publish to be handled.
  const retries: number[] = []
  const a = await startBridge({
    backend: createRedisBackend({
      url: proxy.url,
      keyPrefix,
      links: false,
      redisOptions: {
        retryStrategy: (times) => {
          retries.push(times)
          return times === 1 ? 2_000 : 20
        },
      },
    }),
  })
  const b = await startBridge({ backend: createRedisBackend({ url: redis().url, keyPrefix, links: false }) })
  cleanups.push(a.close, b.close)
  const x = await connect(a.url)
  const y = await connect(b.url)
  cleanups.push(
    () => x.close(),
    () => y.close(),
  )
  y.sub('to-y')
  await y.sync()
  x.pub('to-y', '1')
  await waitFor(() => y.received.length === 1, { message: 'first frame delivered' })
  // The second frame goes out to node B through Redis but gets no answer (stuck on the way).
  proxy.stall()
  const published = a.counts.published
  x.pub('to-y', '2')
  await waitFor(() => proxy.state.stalledBytes > 0, { message: 'second frame on its way' })
  // Redis goes away: the third frame is held at once, the second only once its connection gives up on it.
  await proxy.down()
  await waitFor(async () => !(await a.bridge.isHealthy()), { message: 'node A lost Redis' })
  x.pub('to-y', '3')
  await waitFor(() => a.counts.published === published + 2, { message: 'third frame handled' })
  // The connections' second retry (refused) flushes what was still waiting for an answer.
  await waitFor(() => retries.filter((times) => times === 2).length === 2, {
    message: 'second frame failed',
  })
  await proxy.up()
  await waitFor(() => y.received.length === 3, { message: 'held frames sent', timeout: 10_000 })
  expect(payloads(y)).toEqual(['1', '2', '3'])
}, 20_000)

test('behavior: after a reconnect, a frame that comes live is delivered after the frames queued while the node was away', async () => {
  const proxy = await proxyTo(redis().port as number)
  cleanups.push(() => proxy.down())
  const keyPrefix = `${redis().keyPrefix}drained:`
  const a = await startBridge({ backend: createRedisBackend({ url: redis().url, keyPrefix, links: false }) })
  // Commands one by one (not auto-pipelined), so that the drain of z's topic is answered while y's is held.
  const b = await startBridge({
    backend: createRedisBackend({
      url: proxy.url,
      keyPrefix,
      links: false,
      redisOptions: { enableAutoPipelining: false },
    }),
  })
  cleanups.push(a.close, b.close)
  const x = await connect(a.url)
  // z's topic comes first on node B, so that it is drained before y's.
  const z = await connect(b.url)
  z.sub('mark')
  await z.sync()
  const y = await connect(b.url)
  y.sub('to-y')
  await y.sync()
  cleanups.push(
    () => x.close(),
    () => y.close(),
    () => z.close(),
  )
  x.pub('to-y', '1')
  await waitFor(() => y.received.length === 1, { message: 'first frame delivered' })
  const inspect = new Redis(redis().url, { maxRetriesPerRequest: 0 })
  cleanups.push(() => inspect.disconnect())
  const channels = await inspect.pubsub('CHANNELS', `${keyPrefix}n:*`)
  expect(channels).toHaveLength(2)
  // Node B loses Redis: the second frame is queued for it.
  await proxy.down()
  const [channelA] = await waitFor(async () => {
    const left = (await inspect.pubsub('CHANNELS', `${keyPrefix}n:*`)) as string[]
    return left.length === 1 && left
  })
  const channelB = channels.find((channel) => channel !== channelA) as string
  x.pub('to-y', '2')
  await waitFor(async () => (await inspect.llen(`${keyPrefix}q:to-y`)) === 1, {
    message: 'second frame queued',
  })
  // Node B is back and registered again; its drain of y's queue is held on the way to Redis.
  proxy.holdOn(`${keyPrefix}q:to-y`)
  await proxy.up()
  await waitFor(() => proxy.state.heldChunks > 0, { message: 'node B draining' })
  // The third frame reaches node B live meanwhile. A frame on z's topic (drained already) follows it on node B's
  // channel: once z has it, node B has handled the third.
  proxy.state.watch = '"payload":"3"'
  x.pub('to-y', '3')
  await waitFor(() => proxy.state.seen > 0, { message: 'third frame sent to node B' })
  const mark = JSON.stringify({ topic: 'mark', type: 'pub', payload: 'after 3', silent: true })
  await inspect.publish(channelB, `4:mark9:127.0.0.1${mark}`)
  await waitFor(() => z.received.length === 1, { message: 'node B handled the third frame' })
  proxy.release()
  await waitFor(() => y.received.length === 3, { message: 'every frame delivered' })
  expect(payloads(y)).toEqual(['1', '2', '3'])
}, 20_000)

test('behavior: frames published while Redis is away reach every node once and in order: one over its link at once, one only through Redis once it is back', async () => {
  const proxy = await proxyTo(redis().port as number)
  cleanups.push(() => proxy.down())
  const keyPrefix = `${redis().keyPrefix}partial:`
  // Node A loses Redis (through the proxy); it reaches B over a link, C (no links) only through Redis.
  const a = await startBridge({ backend: createRedisBackend({ url: proxy.url, keyPrefix }) })
  const b = await startBridge({ backend: createRedisBackend({ url: redis().url, keyPrefix }) })
  const c = await startBridge({ backend: createRedisBackend({ url: redis().url, keyPrefix, links: false }) })
  cleanups.push(a.close, b.close, c.close)
  const x = await connect(a.url)
  const y = await connect(b.url)
  const w = await connect(c.url)
  cleanups.push(
    () => x.close(),
    () => y.close(),
    () => w.close(),
  )
  y.sub('shared')
  w.sub('shared')
  await Promise.all([y.sync(), w.sync()])
  const inspect = new Redis(redis().url, { maxRetriesPerRequest: 0 })
  const listener = new Redis(redis().url, { maxRetriesPerRequest: 0 })
  cleanups.push(
    () => inspect.disconnect(),
    () => listener.disconnect(),
  )
  // Through Redis (B's channel) until A's link to B is up: frames until one reaches y without passing there (C's
  // always do).
  const seen: string[] = []
  await listener.psubscribe(`${keyPrefix}n:*`)
  listener.on('pmessage', (_pattern: string, _channel: string, message: string) => seen.push(message))
  for (let i = 1; ; i++) {
    expect(i).toBeLessThan(50)
    x.pub('shared', `warm ${i}`)
    await waitFor(() => payloads(y).includes(`warm ${i}`) && payloads(w).includes(`warm ${i}`))
    // Whatever Redis sent the listener before this answer has arrived.
    await listener.ping()
    if (seen.filter((message) => message.includes(`"warm ${i}"`)).length === 1) break
  }
  const published = a.counts.published
  await proxy.down()
  await waitFor(async () => !(await a.bridge.isHealthy()), { message: 'node A lost Redis' })
  // The channels of B and C (A's is gone).
  const others = await waitFor(async () => {
    const left = (await inspect.pubsub('CHANNELS', `${keyPrefix}n:*`)) as string[]
    return left.length === 2 && left
  })
  x.pub('shared', 'during 1')
  // Over the link to B at once; to C once A is back on Redis (and not to B again).
  await waitFor(() => payloads(y).includes('during 1'), { message: 'during 1 delivered to y' })
  // The next one waits behind it, for both.
  x.pub('shared', 'during 2')
  await waitFor(() => a.counts.published === published + 2, { message: 'during 2 handled' })
  await proxy.up()
  await waitFor(() => payloads(w).includes('during 2'), { message: 'during 2 delivered to w' })
  // A frame put on B's and C's channels after A's script handed the two on: once y and w have it, a copy would have
  // come.
  const end = JSON.stringify({ topic: 'shared', type: 'pub', payload: 'end', silent: true })
  for (const channel of others) await inspect.publish(channel, `6:shared9:127.0.0.1${end}`)
  await waitFor(() => payloads(y).includes('end') && payloads(w).includes('end'), {
    message: 'end delivered',
  })
  const after = (client: TestClient) => payloads(client).filter((payload) => !payload.startsWith('warm'))
  expect(after(y)).toEqual(['during 1', 'during 2', 'end'])
  expect(after(w)).toEqual(['during 1', 'during 2', 'end'])
}, 20_000)
