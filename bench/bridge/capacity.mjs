// Capacity: 10 000 idle subscribed sockets on one bridge process. Measures the time to open and subscribe them, the
// bridge's RSS, and relay throughput (100 pairs ping-pong) beside them versus the same bridge without them.
// Prints one JSON line. Run `npx tsc -b packages/bridge` first. Options: IDLE (default 10000), DURATION_MS (1500),
// REPEATS (2, best run counts), BACKENDS (default "memory,redis").
import os from 'node:os'
import { openSockets, runPairs, sleep, startRedis, startRelay } from './lib.mjs'

const idle = Number(process.env.IDLE ?? 10_000)
const durationMs = Number(process.env.DURATION_MS ?? 1_500)
const repeats = Number(process.env.REPEATS ?? 2)
const backends = (process.env.BACKENDS ?? 'memory,redis').split(',')
const load = { pairs: 100, mode: 'pingpong', durationMs }
const sub = (topic) => JSON.stringify({ topic, type: 'sub', payload: '', silent: true })

const redis = await startRedis()
const results = []
try {
  for (const backend of backends) {
    let alone = 0
    let beside = 0
    let openMs = Number.POSITIVE_INFINITY
    let rssIdleFree = 0
    let rss = 0
    for (let round = 0; round < repeats; round++) {
      const fresh = await startRelay(backend, redis.url)
      try {
        alone = Math.max(alone, (await runPairs(fresh.url, load)).msgsPerSec)
      } finally {
        await fresh.stop()
      }

      const server = await startRelay(backend, redis.url)
      try {
        const before = await server.rss()
        const started = performance.now()
        const sockets = await openSockets(server.url, idle)
        for (let i = 0; i < sockets.length; i++) sockets[i].send(sub(`idle-${round}-${i}`))
        // A round trip through the last socket opened: its `sub` was handled after every earlier one.
        const last = sockets.at(-1)
        await new Promise((resolve) => {
          last.once('message', resolve)
          last.send(
            JSON.stringify({ topic: `idle-${round}-${idle - 1}`, type: 'pub', payload: 'x', silent: true }),
          )
          sockets[0].send(
            JSON.stringify({ topic: `idle-${round}-${idle - 1}`, type: 'pub', payload: 'x', silent: true }),
          )
        })
        openMs = Math.min(openMs, performance.now() - started)
        await sleep(500)
        rssIdleFree = before
        rss = Math.max(rss, await server.rss())
        beside = Math.max(beside, (await runPairs(server.url, load)).msgsPerSec)
        for (const ws of sockets) ws.terminate()
      } finally {
        await server.stop()
      }
    }
    results.push({
      backend,
      idleSockets: idle,
      openMs: Math.round(openMs),
      rssIdleFreeMB: Math.round(rssIdleFree / 1048576),
      rssMB: Math.round(rss / 1048576),
      msgsPerSecAlone: alone,
      msgsPerSecBesideIdle: beside,
      ratio: Math.round((beside / alone) * 100) / 100,
    })
  }
} finally {
  await redis.stop()
}

const memory = results.find((r) => r.backend === 'memory')
console.log(
  JSON.stringify({
    bench: 'bridge-capacity',
    node: process.version,
    cpus: os.cpus().length,
    load,
    repeats,
    results,
    targets: memory && { ratio: memory.ratio >= 0.9, rssUnder150MB: memory.rssMB < 150 },
  }),
)
