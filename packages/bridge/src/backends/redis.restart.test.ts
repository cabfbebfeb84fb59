import { waitFor } from '@pairlink/test-kit'
import { Redis } from 'ioredis'
import { expect, test } from 'vitest'
import { connect, type TestClient } from '../../test/client.js'
import { useCleanups, useRedis } from '../../test/fixtures.js'
import { startBridge } from '../../test/server.js'
import { createRedisBackend } from './redis.js'

// A real redis-server killed and restarted (empty) under traffic, between two bridge nodes.
const redis = useRedis()
const cleanups = useCleanups()

/** Publishes `{from}:{n}:{sentAt}` on `topic` every `intervalMs` until stopped; returns what it sent. */
function traffic(from: TestClient, name: string, topic: string, intervalMs: number) {
  const sent: { payload: string; at: number }[] = []
  let n = 0
  const timer = setInterval(() => {
    const at = Date.now()
    const payload = `${name}:${++n}`
    from.pub(topic, payload)
    sent.push({ payload, at })
  }, intervalMs)
  return { sent, stop: () => clearInterval(timer) }
}
const payloads = (c: TestClient) =>
  c.received.map((frame) => (JSON.parse(frame) as { payload: string }).payload)

test('behavior: after a Redis restart every subscription is back within a second and nothing published after is lost', async () => {
  const keyPrefix = `${redis().keyPrefix}restart:`
  const nodes = await Promise.all(
    [0, 1].map(() => startBridge({ backend: createRedisBackend({ url: redis().url, keyPrefix }) })),
  )
  for (const n of nodes) cleanups.push(n.close)
  const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]]
  const x = await connect(a.url)
  const y = await connect(b.url)
  cleanups.push(
    () => x.close(),
    () => y.close(),
  )
  x.sub('to-x')
  y.sub('to-y')
  await Promise.all([x.sync(), y.sync()])
  const inspect = new Redis(redis().url, { lazyConnect: true, maxRetriesPerRequest: 0 })
  cleanups.push(() => inspect.disconnect())
  const registered = async () => {
    const [toX, toY] = await Promise.all([
      inspect.scard(`${keyPrefix}s:to-x`),
      inspect.scard(`${keyPrefix}s:to-y`),
    ])
    return toX === 1 && toY === 1
  }
  await inspect.connect()
  expect(await registered()).toBe(true)

  const fromX = traffic(x, 'x', 'to-y', 20)
  const fromY = traffic(y, 'y', 'to-x', 20)
  await waitFor(() => x.received.length > 10 && y.received.length > 10)
  await redis().restart()
  const backAt = Date.now()
  // Every live subscription is registered again, on every node, within a second.
  await waitFor(() => registered().catch(() => false), { timeout: 1_000, message: 'subscriptions restored' })
  await waitFor(() => Date.now() - backAt > 1_500)
  fromX.stop()
  fromY.stop()
  const after = (sent: { payload: string; at: number }[]) =>
    sent.filter((entry) => entry.at >= backAt).map((entry) => entry.payload)
  const expectedAtY = after(fromX.sent)
  const expectedAtX = after(fromY.sent)
  expect(expectedAtY.length).toBeGreaterThan(50)
  await waitFor(
    () => {
      const atX = new Set(payloads(x))
      const atY = new Set(payloads(y))
      return expectedAtX.every((p) => atX.has(p)) && expectedAtY.every((p) => atY.has(p))
    },
    { timeout: 5_000, message: 'every frame published after the restart delivered' },
  ).catch(() => {
    const atX = new Set(payloads(x))
    const atY = new Set(payloads(y))
    expect({
      lostAtX: expectedAtX.filter((p) => !atX.has(p)),
      lostAtY: expectedAtY.filter((p) => !atY.has(p)),
    }).toEqual({ lostAtX: [], lostAtY: [] })
  })
}, 30_000)
