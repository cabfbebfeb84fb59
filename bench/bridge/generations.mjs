// Both generations on every backend in one run, beside the ceilings they are weighed against: per generation (v1
// frames, v2 JSON-RPC) the bare relay (`minimal`: a Map of topic → sockets, no work), the bare two-hop forwarder
// (`minimal-linked` × 2: two such processes, each pair split across them, a publish with no subscriber here written as
// it came to the other process over one TCP connection), and Pairlink's bridge in memory, on Redis, and as two nodes
// on Redis with each pair split (node links on, the default). Ping-pong (one ~300-byte message in flight per pair) at
// 1 and 100 pairs. Every relay of a pair count takes its turn in each round (bench/measure.mjs `interleave`); figures
// are medians of the rounds, a ratio the median of the per-round ratios. Per relay: msgs/s, the relay processes' CPU µs
// per message, and, on Redis, redis-server's. Prints one JSON line. Run `node scripts/build.mjs` first.
// Options: PAIRS (default 1,100), ROUNDS (default 3), DURATION_MS (default 1000), RELAYS (names, comma-separated).
import os from 'node:os'
import { startRedis } from '@pairlink/test-kit/redis'
import { pairedRatio } from '../measure.mjs'
import { compareRelays } from './lib.mjs'

/** @typedef {import('./lib.mjs').RelaySetup} RelaySetup */

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 3)
const pairCounts = (process.env.PAIRS ?? '1,100').split(',').map(Number)

/** @type {Record<string, RelaySetup>} */
const relays = {}
for (const wire of /** @type {const} */ (['v1', 'v2'])) {
  relays[`${wire}-minimal`] = { nodes: ['minimal'], wire }
  relays[`${wire}-forwarder`] = { nodes: ['minimal-linked', 'minimal-linked'], wire }
  relays[`${wire}-memory`] = { nodes: ['memory'], wire }
  relays[`${wire}-redis`] = { nodes: ['redis'], wire }
  relays[`${wire}-redis-2nodes`] = { nodes: ['redis', 'redis'], wire }
}
// RELAYS (comma-separated names) runs some of them; a ratio needs both of its relays.
const wanted = process.env.RELAYS?.split(',')
if (wanted) for (const name of Object.keys(relays)) if (!wanted.includes(name)) delete relays[name]

// Each ratio: the relay, what it is weighed against, and the target of issue 29 per pair count (none: shown only).
/** @type {[string, string, string, Record<number, number>][]} */
const ratios = [
  ['v1MemoryVsMinimal', 'v1-memory', 'v1-minimal', {}],
  ['v2MemoryVsMinimal', 'v2-memory', 'v2-minimal', {}],
  ['v1RedisVsMemory', 'v1-redis', 'v1-memory', {}],
  ['v2RedisVsMemory', 'v2-redis', 'v2-memory', { 1: 0.9, 100: 0.9 }],
  ['forwarderVsMinimalV1', 'v1-forwarder', 'v1-minimal', {}],
  ['v1Redis2nodesVsForwarder', 'v1-redis-2nodes', 'v1-forwarder', { 1: 0.8, 100: 0.9 }],
  ['v2Redis2nodesVsForwarder', 'v2-redis-2nodes', 'v2-forwarder', { 1: 0.8, 100: 0.9 }],
]

const redis = await startRedis()
/** @type {Record<string, unknown>[]} */
const results = []
/** @type {Record<string, unknown>[]} */
const perPairs = []
/** @type {{ ratio: string, pairs: number, value: number, target: number, met: boolean }[]} */
const targets = []
try {
  for (const pairs of pairCounts) {
    const { rows, samples } = await compareRelays(
      relays,
      { pairs, mode: 'pingpong', durationMs },
      { rounds, redisUrl: redis.url, keyPrefix: `${redis.keyPrefix}generations:${pairs}:` },
    )
    for (const [relay, row] of Object.entries(rows)) results.push({ relay, pairs, ...row })
    /** @type {Record<string, number>} */
    const entry = {}
    for (const [name, relay, baseline, goal] of ratios) {
      if (!(relay in relays && baseline in relays)) continue
      const value = pairedRatio(samples[relay] ?? [], samples[baseline] ?? [])
      entry[name] = value
      const target = goal[pairs]
      if (target !== undefined) targets.push({ ratio: name, pairs, value, target, met: value >= target })
    }
    perPairs.push({ pairs, ...entry })
  }
} finally {
  await redis.stop()
}

process.stdout.write(
  `${JSON.stringify({
    bench: 'bridge-generations',
    durationMs,
    rounds,
    cpus: os.cpus().length,
    loadavg: os.loadavg().map((value) => Math.round(value * 100) / 100),
    results,
    ratios: perPairs,
    targets,
    allMet: targets.every((target) => target.met),
  })}\n`,
)
