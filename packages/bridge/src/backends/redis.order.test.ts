import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { freePort, waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { connect, type TestClient } from '../../test/client.js'
import { startBridge } from '../../test/server.js'
import { createRedisBackend } from './redis.js'

// Order of v1 frames while a node loses Redis and gets it back: the node reaches a real redis-server through a TCP
// proxy the test can stall (frames already sent get no answer), take down (connections refused) and bring back.
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A TCP proxy to `port` on 127.0.0.1. */
async function proxyTo(port: number) {
  const sockets = new Set<Socket>()
  const state = { stalled: false, stalledBytes: 0 }
  const listenPort = await freePort()
  let server: Server | undefined
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(port, '127.0.0.1')
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
        client.on('data', (chunk) => {
          if (state.stalled) state.stalledBytes += chunk.length
          else upstream.write(chunk)
        })
        upstream.on('data', (chunk) => client.write(chunk))
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
  }
}

const payloads = (client: TestClient) =>
  client.received.map((frame) => (JSON.parse(frame) as { payload: string }).payload)

test('behavior: a frame whose send to Redis failed late is sent again before the frames published after it', async () => {
  const proxy = await proxyTo(redis.port as number)
  cleanups.push(() => proxy.down())
  const keyPrefix = `${redis.keyPrefix}held:`
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
  const b = await startBridge({ backend: createRedisBackend({ url: redis.url, keyPrefix, links: false }) })
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
