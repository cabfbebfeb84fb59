// Relay throughput and latency: 1, 100 and 1000 socket pairs, ping-pong and streaming, through the minimal `ws`
// relay, the Pairlink bridge (memory backend), the bridge with Redis (one node), and two bridge nodes sharing Redis
// with every pair split across them (every message crosses Redis), in the same run. Prints one JSON line.
// Run `npx tsc -b packages/bridge` first. Options: DURATION_MS (per run, default 1000), REPEATS (default 2).
// The relays take turns within each configuration and the best of REPEATS runs counts, so a burst of load from
// something else on the machine does not decide a ratio; losses and duplicates are summed over every run.
import os from 'node:os'
import { runPairs, startRedis, startRelay } from './lib.mjs'

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const repeats = Number(process.env.REPEATS ?? 2)
const pairCounts = [1, 100, 1000]
const modes = ['pingpong', 'streaming']
const relays = ['minimal', 'memory', 'redis', 'redis-2nodes']

const redis = await startRedis()
const results = []
try {
  for (const pairs of pairCounts)
    for (const mode of modes) {
      const best = new Map()
      // Both nodes of a two-node run share one key prefix; every run gets a fresh one.
      const prefix = `bench:${pairs}:${mode}:${Date.now()}:`
      for (let round = 0; round < repeats; round++)
        for (const relay of relays) {
          // A fresh relay process per run: no state or garbage carried over.
          const nodes = relay === 'redis-2nodes' ? ['redis', 'redis'] : [relay]
          const servers = await Promise.all(nodes.map((kind) => startRelay(kind, redis.url, prefix)))
          try {
            const run = await runPairs(
              servers.map((server) => server.url),
              { pairs, mode, durationMs },
            )
            const kept = best.get(relay)
            if (kept) {
              run.lost += kept.lost
              run.duplicated += kept.duplicated
            }
            if (!kept || run.msgsPerSec > kept.msgsPerSec) best.set(relay, run)
            else {
              kept.lost = run.lost
              kept.duplicated = run.duplicated
            }
          } finally {
            await Promise.all(servers.map((server) => server.stop()))
          }
        }
      for (const relay of relays) results.push({ relay, mode, pairs, ...best.get(relay) })
    }
} finally {
  await redis.stop()
}

const find = (relay, mode, pairs) =>
  results.find((r) => r.relay === relay && r.mode === mode && r.pairs === pairs)
const ratios = []
for (const pairs of pairCounts)
  for (const mode of modes) {
    const minimal = find('minimal', mode, pairs).msgsPerSec
    const memory = find('memory', mode, pairs).msgsPerSec
    const redisRate = find('redis', mode, pairs).msgsPerSec
    const crossNode = find('redis-2nodes', mode, pairs).msgsPerSec
    const ratio = (a, b) => Math.round((a / b) * 100) / 100
    ratios.push({
      mode,
      pairs,
      memoryVsMinimal: ratio(memory, minimal),
      redisVsMemory: ratio(redisRate, memory),
      redis2NodesVsMemory: ratio(crossNode, memory),
    })
  }
const geomean = (values) =>
  Math.round(Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length) * 100) / 100
const memoryVsMinimal = geomean(ratios.map((r) => r.memoryVsMinimal))
const redisVsMemory = geomean(ratios.map((r) => r.redisVsMemory))
const redis2NodesVsMemory = geomean(ratios.map((r) => r.redis2NodesVsMemory))

console.log(
  JSON.stringify({
    bench: 'bridge-relay',
    node: process.version,
    cpus: os.cpus().length,
    durationMs,
    repeats,
    results,
    ratios,
    summary: {
      memoryVsMinimal,
      redisVsMemory,
      redis2NodesVsMemory,
      lost: results.reduce((sum, r) => sum + r.lost, 0),
      duplicated: results.reduce((sum, r) => sum + r.duplicated, 0),
      targets: { memoryVsMinimal: memoryVsMinimal >= 0.8, redisVsMemory: redisVsMemory >= 0.5 },
    },
  }),
)
