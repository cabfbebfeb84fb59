// Relay throughput and latency: 1, 100 and 1000 socket pairs, ping-pong and streaming, through the minimal `ws`
// relay, the Pairlink bridge (memory backend), the bridge with Redis (one node), and two bridge nodes sharing Redis
// with every pair split across them (every message crosses Redis), in the same run. Prints one JSON line.
// Run `node scripts/build.mjs` first. Options: DURATION_MS (per run, default 1000), ROUNDS (default 5), PAIRS (default
// "1,100,1000"), MODES (default "pingpong,streaming").
// The relays take turns within each configuration (bench/measure.mjs `interleave`), ROUNDS times, and every figure
// is the median of those rounds, so machine noise hits them alike and no lucky run decides a ratio; losses and
// duplicates are summed over every run.
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { interleave, median } from '../measure.mjs'
import { runPairs, startRelay } from './lib.mjs'

/** @typedef {import('./lib.mjs').RunResult} RunResult */
/** @typedef {'minimal' | 'memory' | 'redis' | 'redis-2nodes'} Relay */

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 5)
const pairCounts = (process.env.PAIRS ?? '1,100,1000').split(',').map(Number)
const modes = /** @type {('pingpong' | 'streaming')[]} */ (
  (process.env.MODES ?? 'pingpong,streaming').split(',')
)
/** @type {Relay[]} */
const relays = ['minimal', 'memory', 'redis', 'redis-2nodes']

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100
/** @param {number[]} a @param {number[]} b  the median of the per-round ratios a[i] / b[i] */
const pairedRatio = (a, b) => round2(median(a.map((value, i) => value / (b[i] ?? Number.NaN))))

const redis = await startRedis()
/** @type {({ relay: Relay, mode: string, pairs: number } & RunResult)[]} */
const results = []
const ratios = []
try {
  for (const pairs of pairCounts)
    for (const mode of modes) {
      /** @type {Record<Relay, RunResult[]>} */
      const runs = { minimal: [], memory: [], redis: [], 'redis-2nodes': [] }
      // Both nodes of a two-node run share one key prefix; every configuration gets a fresh one.
      const prefix = `${redis.keyPrefix}${pairs}:${mode}:`
      /** @param {Relay} relay */
      const measure = (relay) => async () => {
        // A fresh relay process per run: no state or garbage carried over.
        /** @type {('minimal' | 'memory' | 'redis')[]} */
        const nodes = relay === 'redis-2nodes' ? ['redis', 'redis'] : [relay]
        const servers = await Promise.all(nodes.map((kind) => startRelay(kind, redis.url, prefix)))
        try {
          const run = await runPairs(
            servers.map((server) => server.url),
            { pairs, mode, durationMs },
          )
          runs[relay].push(run)
          return run.msgsPerSec
        } finally {
          await Promise.all(servers.map((server) => server.stop()))
        }
      }
      const { medians, samples } = await interleave(
        {
          minimal: measure('minimal'),
          memory: measure('memory'),
          redis: measure('redis'),
          'redis-2nodes': measure('redis-2nodes'),
        },
        { rounds },
      )
      for (const relay of relays) {
        const of = /** @param {(run: RunResult) => number} pick */ (pick) => median(runs[relay].map(pick))
        results.push({
          relay,
          mode,
          pairs,
          msgsPerSec: Math.round(medians[relay]),
          p50Ms: of((run) => run.p50Ms),
          p99Ms: of((run) => run.p99Ms),
          maxMs: of((run) => run.maxMs),
          lost: runs[relay].reduce((sum, run) => sum + run.lost, 0),
          duplicated: runs[relay].reduce((sum, run) => sum + run.duplicated, 0),
        })
      }
      ratios.push({
        mode,
        pairs,
        memoryVsMinimal: pairedRatio(samples.memory, samples.minimal),
        redisVsMemory: pairedRatio(samples.redis, samples.memory),
        redis2NodesVsMemory: pairedRatio(samples['redis-2nodes'], samples.memory),
        redis2NodesVsRedis: pairedRatio(samples['redis-2nodes'], samples.redis),
      })
    }
} finally {
  await redis.stop()
}

/** @param {number[]} values */
const geomean = (values) => round2(Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length))
/** @param {number[]} values */
const range = (values) => [Math.min(...values), Math.max(...values)]
const memoryVsMinimal = geomean(ratios.map((r) => r.memoryVsMinimal))
const redisVsMemory = geomean(ratios.map((r) => r.redisVsMemory))
// Two nodes in ping-pong at 1 and 100 pairs, against one node with Redis (the target: the same backend, so the ratio
// is what crossing nodes costs) and against one node with memory.
const crossNode = Object.fromEntries(
  ratios
    .filter((r) => r.mode === 'pingpong' && (r.pairs === 1 || r.pairs === 100))
    .map((r) => [`pingpong${r.pairs}`, { vsRedis: r.redis2NodesVsRedis, vsMemory: r.redis2NodesVsMemory }]),
)

console.log(
  JSON.stringify({
    bench: 'bridge-relay',
    node: process.version,
    cpus: os.cpus().length,
    durationMs,
    rounds,
    results,
    ratios,
    summary: {
      memoryVsMinimal,
      memoryVsMinimalRange: range(ratios.map((r) => r.memoryVsMinimal)),
      redisVsMemory,
      redisVsMemoryRange: range(ratios.map((r) => r.redisVsMemory)),
      redis2NodesVsMemory: geomean(ratios.map((r) => r.redis2NodesVsMemory)),
      redis2NodesVsRedis: geomean(ratios.map((r) => r.redis2NodesVsRedis)),
      redis2NodesVsRedisRange: range(ratios.map((r) => r.redis2NodesVsRedis)),
      crossNode,
      lost: results.reduce((sum, r) => sum + r.lost, 0),
      duplicated: results.reduce((sum, r) => sum + r.duplicated, 0),
      // Parity with a Map of sockets (it does less work, so it cannot be beaten); Redis at least half of memory; two
      // nodes at least 0.6 of one Redis node in ping-pong at 1 and 100 pairs.
      targets: {
        memoryVsMinimal: memoryVsMinimal >= 0.8,
        redisVsMemory: redisVsMemory >= 0.5,
        ...Object.fromEntries(
          Object.entries(crossNode).map(([key, { vsRedis }]) => [`crossNode.${key}`, vsRedis >= 0.6]),
        ),
      },
    },
  }),
)
