// WalletConnect v2 relay throughput and latency: 1, 100 and 1000 pairs of clients ping-ponging (one ~300-byte message
// in flight per pair) through the minimal `ws` relay (each publish answered, its frame forwarded as it came as the
// push; `minimal-no-answer` answers nothing), Pairlink's v1 bridge (v1 frames) and Pairlink's v2 relay (irn_publish →
// result, irn_subscription push → ack), in the same run, with the relay's CPU time per message beside msgs/s. Prints one
// JSON line. Run `node scripts/build.mjs` first. Options: DURATION_MS (per run, default 1000), ROUNDS (default 5),
// RELAYS (default every one of `relays`, comma-separated; `minimal` and `v2` are needed for the ratios).
// The relays take turns within each configuration (bench/measure.mjs `interleave`) and every figure is the median of
// the rounds; a ratio is the median of the per-round ratios.
import os from 'node:os'
import { geomean, range, ratiosPerRound } from '../measure.mjs'
import { compareRelays, crossNodeRatios, relayRatio, startRedisFor } from './lib.mjs'

/** @typedef {import('./lib.mjs').RelaySetup} RelaySetup */

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 5)
const pairCounts = (process.env.PAIRS ?? '1,100,1000').split(',').map(Number)
// Every relay compared, by name: its processes (server.mjs kinds; with two, each pair straddles them) and the wire its
// clients speak. A v2 store of another kind is one more line here once server.mjs can start it.
/** @type {Record<string, RelaySetup>} */
const relays = {
  minimal: { nodes: ['minimal'], wire: 'v2' },
  'minimal-no-answer': { nodes: ['minimal-no-answer'], wire: 'v2' },
  v1: { nodes: ['memory'], wire: 'v1' },
  // With BENCH_BASELINE_DIR: the v2 relay of another build (an earlier commit), for `v2VsV2Baseline`.
  ...(process.env.BENCH_BASELINE_DIR
    ? {
        'v2-baseline': { nodes: ['baseline-memory'], wire: 'v2' },
        'v2-redis-baseline': { nodes: ['baseline-redis'], wire: 'v2' },
      }
    : {}),
  v2: { nodes: ['memory'], wire: 'v2' },
  'v2-redis': { nodes: ['redis'], wire: 'v2' },
  'v2-redis-2nodes': { nodes: ['redis', 'redis'], wire: 'v2' },
}
const wanted = process.env.RELAYS?.split(',') ?? Object.keys(relays)
const chosen = Object.fromEntries(Object.entries(relays).filter(([name]) => wanted.includes(name)))
// Each Pairlink relay against every baseline listed before it, measured in the same rounds (`v2VsMinimal`, the
// headline, `v2VsMinimalNoAnswer`, `v2VsV1`, `v2RedisVsV2`, and across nodes `v2Redis2nodesVsV2Redis`).
const baselines = ['minimal', 'minimal-no-answer', 'v1', 'v2-baseline', 'v2-redis-baseline', 'v2', 'v2-redis']
const order = Object.keys(relays)
const comparisons = Object.keys(chosen).flatMap((name) =>
  baselines
    .filter(
      (baseline) =>
        baseline in chosen && !name.startsWith('minimal') && order.indexOf(baseline) < order.indexOf(name),
    )
    .map((baseline) => /** @type {[string, string]} */ ([name, baseline])),
)
/** @param {string} name */
const camel = (name) => name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())
const ratioKey = (/** @type {string} */ name, /** @type {string} */ baseline) =>
  `${camel(name).replace(/^./, (c) => c.toLowerCase())}Vs${camel(baseline)}`
// Redis only for a relay that uses it.
const redis = await startRedisFor(chosen)
const results = []
/** @type {({ pairs: number } & Record<string, number>)[]} */
const ratios = []
// The headline ratio of every round, msgs/s and CPU, so the spread behind each median shows.
/** @type {{ pairs: number, msgsPerSec: number[], cpu: number[] }[]} */
const v2VsMinimalRounds = []
try {
  for (const pairs of pairCounts) {
    const { rows, samples, cpuSamples } = await compareRelays(
      chosen,
      { pairs, mode: 'pingpong', durationMs },
      redis ? { rounds, redisUrl: redis.url, keyPrefix: `${redis.keyPrefix}v2:${pairs}:` } : { rounds },
    )
    for (const [relay, row] of Object.entries(rows)) results.push({ relay, pairs, ...row })
    /** @type {Record<string, number>} */
    const entry = {}
    // msgs/s, and the baseline's relay CPU per message over this one's: what the msgs/s ratio would be were the
    // relay alone on its CPU (the load generator shares the machine's).
    for (const [name, baseline] of comparisons) {
      const ratio = relayRatio({ samples, cpuSamples }, name, baseline)
      entry[ratioKey(name, baseline)] = ratio.msgs
      entry[`${ratioKey(name, baseline)}Cpu`] = ratio.cpu
    }
    ratios.push({ pairs, ...entry })
    if (samples.v2 && samples.minimal)
      v2VsMinimalRounds.push({
        pairs,
        msgsPerSec: ratiosPerRound(samples.v2, samples.minimal),
        cpu: ratiosPerRound(cpuSamples.minimal ?? [], cpuSamples.v2 ?? []),
      })
  }
} finally {
  await redis?.stop()
}

/** @type {Record<string, number | number[]>} */
const summary = {}
for (const key of Object.keys(ratios[0] ?? {}).filter((key) => key !== 'pairs')) {
  const values = ratios.map((r) => /** @type {number} */ (r[key]))
  summary[key] = geomean(values)
  summary[`${key}Range`] = range(values)
}
const v2VsMinimalRange = summary.v2VsMinimalRange
// Two nodes on one Redis against one, in ping-pong at 1 and 100 pairs (the cross-node target, as relay.mjs for v1).
const crossNode = crossNodeRatios(ratios, {
  twoVsOne: 'v2Redis2nodesVsV2Redis',
  twoVsMemory: 'v2Redis2nodesVsV2',
})
console.log(
  JSON.stringify({
    bench: 'bridge-relay-v2',
    node: process.version,
    cpus: os.cpus().length,
    durationMs,
    rounds,
    results,
    ratios,
    v2VsMinimalRounds,
    summary: {
      ...summary,
      lost: results.reduce((sum, r) => sum + r.lost, 0),
      duplicated: results.reduce((sum, r) => sum + r.duplicated, 0),
      refused: results.reduce((sum, r) => sum + r.refused, 0),
      crossNode,
      // The minimal relay reads and writes the frames a v2 relay must (publish and ack in, answer and push out) and
      // does nothing else (no validation, mailbox or ack tracking), so parity is the claim: at least 0.8 at every pair
      // count. `minimal-no-answer` writes one frame a message where v2 must write two: no target against it. Two nodes
      // at least 0.6 of one.
      targets: {
        ...(Array.isArray(v2VsMinimalRange) ? { v2VsMinimal: (v2VsMinimalRange[0] ?? 0) >= 0.8 } : {}),
        ...Object.fromEntries(
          Object.entries(crossNode).map(([key, { vsRedis }]) => [`crossNode.${key}`, (vsRedis ?? 0) >= 0.6]),
        ),
      },
    },
  }),
)
