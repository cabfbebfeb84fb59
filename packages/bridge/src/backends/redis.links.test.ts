import { connect, createServer, type Socket } from 'node:net'
import { freePort, waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { silentLogger } from '../logger.js'
import { createLinkReader, encodeLinkFrameBytes, LinkFrame } from '../mesh/linkWire.js'
import type { NodeLinkOptions } from '../mesh/nodeMesh.js'
import { createBridgeMetrics } from '../metrics.js'
import type { BackendContext } from './backend.js'
import { createRedisBackend } from './redis.js'

// Bridge nodes (the Redis backend) on one real redis-server, linked by real TCP connections.
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

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let run = 0
async function start(links: NodeLinkOptions | false = {}, keyPrefix = `${redis.keyPrefix}links:${++run}:`) {
  const backend = createRedisBackend({ url: redis.url, keyPrefix, links })
  const delivered: string[] = []
  const context: BackendContext = {
    counts: createBridgeMetrics().counts,
    logger: silentLogger,
    queue: { ttlSeconds: 60, maxQueueLength: 100, maxQueuedBytes: 1 << 20, maxQueuedBytesPerOwner: 1 << 30 },
    webhooks: { maxPerTopic: 2, ttlSeconds: 60 },
    deliver(_topic, frame) {
      delivered.push(frame)
      return 1
    },
  }
  await backend.start(context)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await backend.close()
  }
  cleanups.push(close)
  return { backend, counts: context.counts, delivered, keyPrefix, close }
}
type Node = Awaited<ReturnType<typeof start>>

const subscribed = async (node: Node, topic: string) => {
  node.backend.subscribe(topic)
  await node.backend.drain(topic)
}
const publishes = async () =>
  Number(/cmdstat_publish:calls=(\d+)/.exec(await inspect.info('commandstats'))?.[1] ?? 0)
const idOf = async (node: Node, topic: string) => {
  const members = await inspect.smembers(`${node.keyPrefix}s:${topic}`)
  return members[0] as string
}

// Publishes `count` frames, `perTurn` in each event-loop turn (so they batch as a busy node's would).
async function publishMany(
  from: Node,
  topic: string,
  frames: string[],
  perTurn = 1,
  between?: (i: number) => void,
) {
  for (let i = 0; i < frames.length; i++) {
    between?.(i)
    const frame = frames[i] as string
    from.backend.publish(topic, frame, Buffer.byteLength(frame), 0, 'owner')
    if ((i + 1) % perTurn === 0) await new Promise((resolve) => setImmediate(resolve))
  }
}

// Frames from `from` to `to` until one reaches it without a Redis PUBLISH: the link is up and the way is clear.
// Returns the frames it sent.
async function linked(from: Node, to: Node, topic: string) {
  const sent: string[] = []
  await waitFor(
    async () => {
      const before = await publishes()
      const frame = `warm-up ${sent.length}`
      sent.push(frame)
      await from.backend.publish(topic, frame, frame.length, 0, 'owner')
      await waitFor(() => to.delivered.includes(frame), { message: 'the warm-up frame' })
      return (await publishes()) === before
    },
    { message: 'a frame over the link' },
  )
  return sent
}

/** A TCP proxy in front of a node's link port, whose connections the test can cut. */
async function proxy(port: number) {
  const pairs = new Set<[Socket, Socket]>()
  let connections = 0
  const server = createServer((client) => {
    connections++
    const upstream = connect(port, '127.0.0.1')
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    client.pipe(upstream)
    upstream.pipe(client)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    for (const socket of pair) socket.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => {
    for (const [client, upstream] of pairs) client.destroy(upstream.destroy() && undefined)
    return new Promise((resolve) => server.close(resolve))
  })
  return {
    address: `127.0.0.1:${(server.address() as { port: number }).port}`,
    get connections() {
      return connections
    },
    /** Cuts every connection, both ways, at once. */
    cut() {
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
    },
  }
}

test('default', async () => {
  const a = await start()
  const b = await start({}, a.keyPrefix)
  await subscribed(b, 't')
  const warmUp = await linked(a, b, 't')
  const before = await publishes()
  const frames = Array.from({ length: 200 }, (_, i) => `frame-${i}`)
  await publishMany(a, 't', frames, 7)
  await expect.poll(() => b.delivered.length).toBe(warmUp.length + frames.length)
  expect(b.delivered).toEqual([...warmUp, ...frames])
  expect(await publishes()).toBe(before)
  expect(await a.backend.drain('t')).toEqual([])
})

describe('behavior', () => {
  test('behavior: each node advertises its link address in Redis while it runs', async () => {
    const port = await freePort()
    const a = await start({ port, advertise: `10.1.2.3:${port}` })
    const key = `${a.keyPrefix}link:${await (
      async () => {
        await subscribed(a, 'mine')
        return idOf(a, 'mine')
      }
    )()}`
    expect(await inspect.get(key)).toBe(`10.1.2.3:${port}`)
    expect(await inspect.pttl(key)).toBeGreaterThan(0)
    await a.close()
    expect(await inspect.get(key)).toBeNull()
  })

  test('behavior: a link cut mid-stream loses nothing, duplicates nothing and keeps the order', async () => {
    const port = await freePort()
    const front = await proxy(port)
    const a = await start()
    const b = await start({ port, advertise: front.address }, a.keyPrefix)
    await subscribed(b, 't')
    const expected: string[] = []
    for (let cut = 0; cut < 4; cut++) {
      expected.push(...(await linked(a, b, 't')))
      const connections = front.connections
      // Cut while frames are on the wire and unacked: they go again through Redis, and those the node handled
      // already are dropped there.
      const frames = Array.from({ length: 600 }, (_, i) => `frame-${cut}-${i}`)
      await publishMany(a, 't', frames, 10, (i) => {
        if (i === 300) front.cut()
      })
      expected.push(...frames)
      await waitFor(() => front.connections > connections, { message: 'the link dialled again' })
    }
    const marker = 'marker'
    await a.backend.publish('t', marker, marker.length, 0, 'owner')
    await waitFor(() => b.delivered.includes(marker), { message: 'the marker' })
    expect(b.delivered).toEqual([...expected, marker])
    expect(a.counts.backendErrors + b.counts.backendErrors).toBe(0)
  })

  test("behavior: frames through the script and over the link keep each topic's order, once", async () => {
    const a = await start()
    const b = await start({}, a.keyPrefix)
    const topics = Array.from({ length: 20 }, (_, i) => `t${i}`)
    for (const topic of topics) await subscribed(b, topic)
    await linked(a, b, 't0')
    const sent = new Map<string, string[]>(topics.map((topic) => [topic, []]))
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      for (let i = 0; i < 3_000; i++) {
        const topic = topics[i % topics.length] as string
        const frame = `${topic}:${i}`
        sent.get(topic)?.push(frame)
        a.backend.publish(topic, frame, frame.length, 0, 'owner')
        if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve))
        // Now and then the topics' nodes are too old to trust: the next frame of each goes through the script, which
        // waits for the link, and the link, behind the script's fence.
        if (i % 500 === 499) vi.setSystemTime(Date.now() + 6_000)
      }
    } finally {
      vi.useRealTimers()
    }
    await waitFor(() => b.delivered.filter((frame) => frame.startsWith('t')).length >= 3_000, {
      message: 'every frame',
    })
    for (const topic of topics)
      expect(b.delivered.filter((frame) => frame.startsWith(`${topic}:`))).toEqual(sent.get(topic))
    expect(a.counts.backendErrors + b.counts.backendErrors).toBe(0)
  })

  test('behavior: a node that restarts is reached again; what was sent while it was away is queued', async () => {
    const port = await freePort()
    const a = await start()
    const b = await start({ port }, a.keyPrefix)
    await subscribed(b, 't')
    await linked(a, b, 't')
    await b.close()
    await a.backend.publish('t', 'while away', 10, 0, 'owner')
    const b2 = await start({ port }, a.keyPrefix)
    b2.backend.subscribe('t')
    expect(await b2.backend.drain('t')).toEqual(['while away'])
    const warmUp = await linked(a, b2, 't')
    await publishMany(a, 't', ['after 1', 'after 2'])
    await expect.poll(() => b2.delivered).toEqual([...warmUp, 'after 1', 'after 2'])
  })

  test('behavior: a node without links gets the numbered frames of a node with links through Redis', async () => {
    const a = await start()
    const b = await start(false, a.keyPrefix)
    await subscribed(b, 't')
    const frames = Array.from({ length: 50 }, (_, i) => `frame-${i}`)
    await publishMany(a, 't', frames, 5)
    await expect.poll(() => b.delivered.length).toBe(frames.length)
    expect(b.delivered).toEqual(frames)
    expect(await inspect.exists(`${a.keyPrefix}link:${await idOf(b, 't')}`)).toBe(0)
  })
})

describe('error', () => {
  test('error: nodes with different secrets never link; their frames go through Redis', async () => {
    const a = await start({ secret: 'one' })
    const b = await start({ secret: 'two' }, a.keyPrefix)
    await subscribed(b, 't')
    const frames = Array.from({ length: 20 }, (_, i) => `frame-${i}`)
    await publishMany(a, 't', frames)
    // The listener refuses the dialer's proof (either end may count it). A node dials only when it sends to a node it
    // knows, and it learns b from the script's answer: when every frame went out before that answer came back, none
    // dialled, so one more frame at a time until a dial was refused.
    await waitFor(
      async () => {
        if (a.counts.backendErrors + b.counts.backendErrors > 0) return true
        const frame = `frame-${frames.length}`
        frames.push(frame)
        await publishMany(a, 't', [frame])
        return false
      },
      { message: 'the refused handshake', timeout: 20_000, interval: 50 },
    )
    const before = await publishes()
    await publishMany(a, 't', ['later'])
    await expect.poll(() => b.delivered).toEqual([...frames, 'later'])
    expect(await publishes()).toBeGreaterThan(before)
  })

  test('error: a connection without the right proof is closed', async () => {
    const b = await start({ secret: 'right' })
    await subscribed(b, 't')
    const address = (await inspect.get(`${b.keyPrefix}link:${await idOf(b, 't')}`)) as string
    const socket = connect(Number(address.split(':')[1]), '127.0.0.1')
    cleanups.push(() => socket.destroy())
    const closed = new Promise((resolve) => socket.on('close', resolve).on('error', () => {}))
    const challenge = await new Promise<Buffer>((resolve) =>
      socket.on(
        'data',
        createLinkReader(
          () => 1_024,
          (_type, body) => resolve(Buffer.from(body)),
        ),
      ),
    )
    const wrong = Buffer.alloc(32, 1)
    socket.write(
      encodeLinkFrameBytes(LinkFrame.hello, Buffer.from('f'.repeat(16)), challenge.subarray(16), wrong),
    )
    await closed
    await waitFor(() => b.counts.backendErrors > 0, { message: 'the failure counted' })
  })
})
