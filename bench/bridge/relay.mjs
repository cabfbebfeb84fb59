// Relay throughput and latency: 1, 100 and 1000 socket pairs, ping-pong and streaming, through the minimal `ws`
// relay, the Pairlink bridge (memory backend), the bridge with Redis (one node), and two bridge nodes sharing Redis
// with every pair split across them (every message crosses from one node to the other, over their link), in the same
// run. Prints one JSON line.
// Run `node scripts/build.mjs` first. Options: DURATION_MS (per run, default 1000), ROUNDS (default 5), PAIRS (default
// "1,100,1000"), MODES (default "pingpong,streaming").
// The relays take turns within each configuration (bench/measure.mjs `interleave`), ROUNDS times, and every figure
// is the median of those rounds, so machine noise hits them alike and no lucky run decides a ratio; losses and
// duplicates are summed over every run.
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { geomean, pairedRatio, range } from '../measure.mjs'
import { compareRelays, crossNodeRatios } from './lib.mjs'

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 5)
const pairCounts = (process.env.PAIRS ?? '1,100,1000').split(',').map(Number)
const modes = /** @type {('pingpong' | 'streaming')[]} */ (
  (process.env.MODES ?? 'pingpong,streaming').split(',')
)
/** @satisfies {Record<string, import('./lib.mjs').RelaySetup>} */
const relays = {
  minimal: { nodes: ['minimal'], wire: 'v1' },
  memory: { nodes: ['memory'], wire: 'v1' },
  redis: { nodes: ['redis'], wire: 'v1' },
  'redis-2nodes': { nodes: ['redis', 'redis'], wire: 'v1' },
}

const redis = await startRedis()
const results = []
const ratios = []
try {
  for (const pairs of pairCounts)
    for (const mode of modes) {
      // Both nodes of a two-node run share one key prefix; every configuration gets a fresh one.
      const { rows, samples } = await compareRelays(
        relays,
        { pairs, mode, durationMs },
        { rounds, redisUrl: redis.url, keyPrefix: `${redis.keyPrefix}${pairs}:${mode}:` },
      )
      for (const [relay, row] of Object.entries(rows)) results.push({ relay, mode, pairs, ...row })
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

const memoryVsMinimal = geomean(ratios.map((r) => r.memoryVsMinimal))
const redisVsMemory = geomean(ratios.map((r) => r.redisVsMemory))
// Two nodes in ping-pong at 1 and 100 pairs, against one node with Redis (the target: the same backend, so the ratio
// is what crossing nodes costs) and against one node with memory.
const crossNode = crossNodeRatios(ratios, {
  twoVsOne: 'redis2NodesVsRedis',
  twoVsMemory: 'redis2NodesVsMemory',
})

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
