// How much one Redis carries (docs/redis-ha.md): two bridge nodes on one redis-server, PAIRS (default 100,1000)
// pairs ping-ponging across them, each pair's sockets on different nodes, for v1 with node links (the default: Redis
// carries no frame between live peers), v1 through Redis alone (`--link-listen off`) and v2 (every message kept and
// fanned out in Redis). Measures msgs/s, the nodes' CPU per message and redis-server's (INFO cpu, user + system, over
// the same window), and from it what one Redis core would carry: 10^6 / Redis µs per message. ROUNDS (default 3)
// rounds, the configurations taking turns; medians. Prints one JSON line. Run `node scripts/build.mjs` first.
// Options: ROUNDS, PAIRS, DURATION_MS (default 2000).
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { interleave, median } from '../measure.mjs'
import { redisCpuReader, runPairs, startRelay } from './lib.mjs'

const rounds = Number(process.env.ROUNDS ?? 3)
const pairCounts = (process.env.PAIRS ?? '100,1000').split(',').map(Number)
const durationMs = Number(process.env.DURATION_MS ?? 2_000)

/** @type {Record<string, { kind: import('./lib.mjs').RelayKind, wire: import('./lib.mjs').WireName }>} */
const configurations = {
  'v1-links': { kind: 'redis', wire: 'v1' },
  'v1-redis-only': { kind: 'redis-nolinks', wire: 'v1' },
  v2: { kind: 'redis', wire: 'v2' },
}

const redis = await startRedis()
const redisCpuUs = redisCpuReader(redis.url)
const results = []
try {
  for (const pairs of pairCounts) {
    /** @type {Record<string, { msgsPerSec: number, nodeCpuUsPerMsg: number, redisCpuUsPerMsg: number, lost: number }[]>} */
    const runs = {}
    /** @param {string} name */
    const measure = (name) => async () => {
      const { kind, wire } = /** @type {(typeof configurations)[string]} */ (configurations[name])
      const keyPrefix = `${redis.keyPrefix}${name}:${pairs}:${Math.random()}:`
      const nodes = await Promise.all([0, 1].map(() => startRelay(kind, redis.url, keyPrefix)))
      try {
        /** @type {number[]} */
        const redisMarks = []
        const run = await runPairs(
          nodes.map((node) => node.url),
          {
            pairs,
            mode: 'pingpong',
            durationMs,
            wire,
            keeps: wire === 'v2',
            relayUsage: async () => {
              const [usage, redisUs] = await Promise.all([
                Promise.all(nodes.map((node) => node.usage())),
                redisCpuUs(),
              ])
              redisMarks.push(redisUs)
              return usage.reduce((a, b) => ({ cpuUs: a.cpuUs + b.cpuUs, syscalls: a.syscalls + b.syscalls }))
            },
          },
        )
        const delivered = (run.msgsPerSec * durationMs) / 1000
        const redisUs = (redisMarks[1] ?? 0) - (redisMarks[0] ?? 0)
        runs[name] ??= []
        runs[name].push({
          msgsPerSec: run.msgsPerSec,
          nodeCpuUsPerMsg: run.relayCpuUsPerMsg,
          redisCpuUsPerMsg: delivered ? redisUs / delivered : 0,
          lost: run.lost,
        })
        return run.msgsPerSec
      } finally {
        await Promise.all(nodes.map((node) => node.stop()))
      }
    }
    await interleave(Object.fromEntries(Object.keys(configurations).map((name) => [name, measure(name)])), {
      rounds,
    })
    for (const [name, list] of Object.entries(runs)) {
      const of = (/** @type {(run: (typeof list)[number]) => number} */ pick) => median(list.map(pick))
      const redisCpuUsPerMsg = Math.round(of((run) => run.redisCpuUsPerMsg) * 10) / 10
      results.push({
        configuration: name,
        pairs,
        msgsPerSec: Math.round(of((run) => run.msgsPerSec)),
        nodeCpuUsPerMsg: Math.round(of((run) => run.nodeCpuUsPerMsg) * 10) / 10,
        redisCpuUsPerMsg,
        redisCorePercent: Math.round((of((run) => run.msgsPerSec) * of((run) => run.redisCpuUsPerMsg)) / 1e4),
        msgsPerSecPerRedisCore: redisCpuUsPerMsg > 0 ? Math.round(1e6 / redisCpuUsPerMsg) : null,
        lost: list.reduce((sum, run) => sum + run.lost, 0),
      })
    }
  }
  console.log(
    JSON.stringify({
      bench: 'redisLoad',
      results,
      rounds,
      durationMs,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((value) => Math.round(value * 100) / 100),
    }),
  )
} finally {
  await redis.stop()
}
