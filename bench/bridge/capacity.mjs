// Capacity: 10 000 idle subscribed sockets on one bridge process. Measures the time to open and subscribe them, the
// bridge's RSS, and relay throughput (100 pairs ping-pong) beside them versus the same bridge without them.
// Prints one JSON line. Run `node scripts/build.mjs` first. Options: IDLE (default 10000), DURATION_MS (1500),
// ROUNDS (3; alone and beside the idle sockets take turns, medians count), BACKENDS (default "memory,redis").
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { interleave, median } from '../measure.mjs'
import { openIdle, runPairs, startRelay } from './lib.mjs'

const idle = Number(process.env.IDLE ?? 10_000)
const durationMs = Number(process.env.DURATION_MS ?? 1_500)
const rounds = Number(process.env.ROUNDS ?? 3)
const backends = /** @type {('minimal' | 'memory' | 'redis')[]} */ (
  (process.env.BACKENDS ?? 'memory,redis').split(',')
)
/** @type {{ pairs: number, mode: 'pingpong', durationMs: number }} */
const load = { pairs: 100, mode: 'pingpong', durationMs }

const redis = await startRedis()
const results = []
try {
  for (const backend of backends) {
    /** @type {number[]} */
    const openMs = []
    /** @type {number[]} */
    const rssIdleFree = []
    /** @type {number[]} */
    const rss = []
    const alone = async () => {
      const fresh = await startRelay(backend, redis.url)
      try {
        return (await runPairs(fresh.url, load)).msgsPerSec
      } finally {
        await fresh.stop()
      }
    }
    const beside = async () => {
      const server = await startRelay(backend, redis.url)
      try {
        rssIdleFree.push(await server.rss())
        const started = performance.now()
        const { sockets } = await openIdle(server.url, idle)
        openMs.push(performance.now() - started)
        rss.push(await server.rss())
        const { msgsPerSec } = await runPairs(server.url, load)
        for (const ws of sockets) ws.terminate()
        return msgsPerSec
      } finally {
        await server.stop()
      }
    }
    const { medians } = await interleave({ alone, beside }, { rounds })
    results.push({
      backend,
      idleSockets: idle,
      openMs: Math.round(median(openMs)),
      rssIdleFreeMB: Math.round(median(rssIdleFree) / 1048576),
      rssMB: Math.round(median(rss) / 1048576),
      msgsPerSecAlone: Math.round(medians.alone),
      msgsPerSecBesideIdle: Math.round(medians.beside),
      ratio: Math.round((medians.beside / medians.alone) * 100) / 100,
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
    rounds,
    results,
    targets: memory && { ratio: memory.ratio >= 0.9, rssUnder150MB: memory.rssMB < 150 },
  }),
)
