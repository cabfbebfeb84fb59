// What the per-address budgets cost: relay throughput of the bridge (memory backend) with the per-address budgets
// (frames per second, connections, queued bytes) at their defaults (`on`) beside the same bridge with them off
// (`off`, the configuration relay.mjs measures; the per-socket rate limit is off in both), in the same run. Each
// pair connects from a loopback address of its own, so the budgets count pairs as they would count separate clients
// and do not bite at these rates (a bite would close sockets and show as `lost`). Prints one JSON line. Run `node scripts/build.mjs` first. Options: DURATION_MS (per run, default 1000), ROUNDS (default 5).
import os from 'node:os'
import { interleave, median } from '../measure.mjs'
import { runPairs, startRelay } from './lib.mjs'

/** @typedef {import('./lib.mjs').RunResult} RunResult */

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 5)
// One pair at full speed (20 000 frames/s from one address) is exactly what the per-address budget refuses, so the
// comparison starts at 100 pairs.
const pairCounts = [100, 1000]

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100

const results = []
for (const pairs of pairCounts) {
  /** @type {{ on: RunResult[], off: RunResult[] }} */
  const runs = { on: [], off: [] }
  /** @param {'on' | 'off'} limits */
  const measure = (limits) => async () => {
    const server = await startRelay(limits === 'on' ? 'memory-limited' : 'memory')
    try {
      const run = await runPairs(server.url, { pairs, mode: 'pingpong', durationMs, spreadAddresses: true })
      runs[limits].push(run)
      return run.msgsPerSec
    } finally {
      await server.stop()
    }
  }
  const { medians, samples } = await interleave({ off: measure('off'), on: measure('on') }, { rounds })
  results.push({
    pairs,
    mode: 'pingpong',
    offMsgsPerSec: Math.round(medians.off),
    onMsgsPerSec: Math.round(medians.on),
    // The median of the per-round ratios: both measured in the same round.
    onVsOff: round2(median(samples.on.map((value, i) => value / (samples.off[i] ?? Number.NaN)))),
    offP99Ms: median(runs.off.map((run) => run.p99Ms)),
    onP99Ms: median(runs.on.map((run) => run.p99Ms)),
    lost: [...runs.on, ...runs.off].reduce((sum, run) => sum + run.lost, 0),
    // Every round, so a reader sees the spread behind the medians.
    offSamples: samples.off.map(Math.round),
    onSamples: samples.on.map(Math.round),
  })
}

console.log(
  JSON.stringify({
    bench: 'bridge-limits',
    node: process.version,
    cpus: os.cpus().length,
    durationMs,
    rounds,
    results,
  }),
)
