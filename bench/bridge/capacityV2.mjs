// Capacity of the v2 relay: IDLE (default 10 000) idle v2 clients on one bridge process, each with a key and relay
// JWT of its own (the relay keys its state by client id, so a shared key would understate it) and subscribed to a
// topic of its own, with the memory store and with the Redis store (one redis-server from the test kit, `REDIS_URL`
// when set), beside as many idle v1 sockets on a fresh bridge, in the same run. Measures the time to make the tokens
// (load generator, node:crypto), to open and subscribe every socket (the relay verifies each token and, on Redis,
// registers each topic), and the bridge's RSS and heap after a GC. Prints one JSON line. Run `node scripts/build.mjs`
// first. Options: IDLE, ROUNDS (default 3; the three take turns, medians count).
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { interleave, median } from '../measure.mjs'
import { openIdle, relayJwt, startRelay } from './lib.mjs'

const idle = Number(process.env.IDLE ?? 10_000)
const rounds = Number(process.env.ROUNDS ?? 3)

/** @typedef {'v1' | 'v2' | 'v2Redis'} Run */
/** @typedef {{ keysMs: number[], openMs: number[], subscribeMs: number[], rssIdleFree: number[], rss: number[], heapUsed: number[] }} Samples */
const runs = /** @type {const} */ ({
  v1: { wire: 'v1', backend: 'memory' },
  v2: { wire: 'v2', backend: 'memory' },
  v2Redis: { wire: 'v2', backend: 'redis' },
})
/** @type {Record<Run, Samples>} */
const samples = {
  v1: { keysMs: [], openMs: [], subscribeMs: [], rssIdleFree: [], rss: [], heapUsed: [] },
  v2: { keysMs: [], openMs: [], subscribeMs: [], rssIdleFree: [], rss: [], heapUsed: [] },
  v2Redis: { keysMs: [], openMs: [], subscribeMs: [], rssIdleFree: [], rss: [], heapUsed: [] },
}

const redis = await startRedis()

/** @param {Run} run */
const measure = (run) => async () => {
  const { wire, backend } = runs[run]
  const server = await startRelay(backend, redis.url)
  const s = samples[run]
  try {
    s.rssIdleFree.push(await server.rss())
    let started = performance.now()
    const tokens = wire === 'v2' ? Array.from({ length: idle }, () => relayJwt(server.url)) : []
    s.keysMs.push(performance.now() - started)
    started = performance.now()
    const { sockets, subscribeMs } = await openIdle(server.url, idle, {
      wire,
      ...(wire === 'v2' ? { queryOf: (/** @type {number} */ i) => `?auth=${tokens[i]}` } : {}),
    })
    const openMs = performance.now() - started
    s.openMs.push(openMs)
    s.subscribeMs.push(subscribeMs)
    const { rss, heapUsed } = await server.memory()
    s.rss.push(rss)
    s.heapUsed.push(heapUsed)
    for (const ws of sockets) ws.terminate()
    return openMs
  } finally {
    await server.stop()
  }
}

try {
  await interleave({ v1: measure('v1'), v2: measure('v2'), v2Redis: measure('v2Redis') }, { rounds })
} finally {
  await redis.stop()
}

const MB = 1_048_576
/** @param {Run} run */
const row = (run) => {
  const { wire, backend } = runs[run]
  const s = samples[run]
  return {
    wire,
    backend,
    idleClients: idle,
    ...(wire === 'v2' ? { keysMs: Math.round(median(s.keysMs)) } : {}),
    openMs: Math.round(median(s.openMs)),
    subscribeMs: Math.round(median(s.subscribeMs)),
    rssIdleFreeMB: Math.round(median(s.rssIdleFree) / MB),
    rssMB: Math.round(median(s.rss) / MB),
    heapUsedMB: Math.round(median(s.heapUsed) / MB),
    // What one idle client costs the relay process, beyond the process itself.
    kBPerClient: Math.round(((median(s.rss) - median(s.rssIdleFree)) / idle / 1024) * 10) / 10,
  }
}
const v2 = row('v2')
const v2Redis = row('v2Redis')
/** @param {number} a @param {number} b */
const ratio = (a, b) => Math.round((a / b) * 100) / 100
console.log(
  JSON.stringify({
    bench: 'bridge-capacity-v2',
    node: process.version,
    cpus: os.cpus().length,
    rounds,
    results: [row('v1'), v2, v2Redis],
    // The v2 relay with its mailbox in Redis against the memory store, same run.
    redisVsMemory: {
      rss: ratio(median(samples.v2Redis.rss), median(samples.v2.rss)),
      heapUsed: ratio(median(samples.v2Redis.heapUsed), median(samples.v2.heapUsed)),
      openMs: ratio(median(samples.v2Redis.openMs), median(samples.v2.openMs)),
    },
    targets: {
      v2RssUnder200MB: v2.rssMB < 200,
      redisUnder220MB: { value: v2Redis.rssMB, met: v2Redis.rssMB < 220 },
    },
  }),
)
