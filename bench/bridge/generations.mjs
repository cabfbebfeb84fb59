// Issue 29's ratios in one run: v1 and v2, each in memory, on one node on Redis and on two nodes sharing Redis with
// every pair split across them (node links on), beside the bare relay (`minimal`, one process) and the bare two-hop
// forwarder (`minimal-2nodes`: two minimal relays joined by one plain TCP connection, pairs split alike), each bare
// relay once per wire. PAIRS (default 1,100) pairs ping-pong; every relay takes its turn in each of ROUNDS (default 3)
// rounds (bench/measure.mjs `interleave`), DURATION_MS (default 1000) each. Per relay × pairs: median msgs/s, the relay
// processes' CPU µs per message, redis-server's (INFO cpu) for a relay on Redis, lost, duplicated; the ratios are
// medians of per-round ratios, with the targets of issue 29. Prints one JSON line. Run `node scripts/build.mjs` first;
// run it under the shared lock (`flock /work/coord/bench.lock node bench/bridge/generations.mjs`).
// RELAYS (a comma-separated subset of `relays`) is for trying one relay; the ratios need both of their relays.
import os from 'node:os'
import { ratiosPerRound } from '../measure.mjs'
import { compareRelays, redisCpuReader, relayRatio, startRedisFor } from './lib.mjs'

/** @typedef {import('./lib.mjs').RelaySetup} RelaySetup */

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 3)
const pairCounts = (process.env.PAIRS ?? '1,100').split(',').map(Number)

// `<wire>-<relay>`: the clients' wire, then the relay. The bare relays run once per wire (v2 clients send and read
// more bytes and the relay answers each publish), and each generation is weighed against the bare relay of its wire.
/** @type {Record<string, RelaySetup>} */
const relays = {
  'v1-minimal': { nodes: ['minimal'], wire: 'v1' },
  'v1-memory': { nodes: ['memory'], wire: 'v1' },
  'v1-redis': { nodes: ['redis'], wire: 'v1' },
  'v1-minimal-2nodes': { nodes: ['minimal-linked', 'minimal-linked'], wire: 'v1' },
  'v1-redis-2nodes': { nodes: ['redis', 'redis'], wire: 'v1' },
  'v2-minimal': { nodes: ['minimal'], wire: 'v2' },
  'v2-memory': { nodes: ['memory'], wire: 'v2' },
  'v2-redis': { nodes: ['redis'], wire: 'v2' },
  'v2-minimal-2nodes': { nodes: ['minimal-linked', 'minimal-linked'], wire: 'v2' },
  'v2-redis-2nodes': { nodes: ['redis', 'redis'], wire: 'v2' },
}
const wanted = process.env.RELAYS?.split(',') ?? Object.keys(relays)
const chosen = Object.fromEntries(Object.entries(relays).filter(([name]) => wanted.includes(name)))

// Each ratio: [relay, baseline], measured in the same rounds.
/** @type {Record<string, [string, string]>} */
const comparisons = {
  v1MemoryVsMinimal: ['v1-memory', 'v1-minimal'],
  v2MemoryVsMinimal: ['v2-memory', 'v2-minimal'],
  v1RedisVsV1Memory: ['v1-redis', 'v1-memory'],
  v2RedisVsV2Memory: ['v2-redis', 'v2-memory'],
  v1Redis2nodesVsForwarder: ['v1-redis-2nodes', 'v1-minimal-2nodes'],
  v2Redis2nodesVsForwarder: ['v2-redis-2nodes', 'v2-minimal-2nodes'],
}
// Issue 29's done-means: the least each ratio must reach, per pair count.
/** @type {Record<string, Record<number, number>>} */
const thresholds = {
  v2RedisVsV2Memory: { 1: 0.9, 100: 0.9 },
  v1Redis2nodesVsForwarder: { 1: 0.8, 100: 0.9 },
  v2Redis2nodesVsForwarder: { 1: 0.8, 100: 0.9 },
}

const loadavg = () => os.loadavg().map((value) => Math.round(value * 100) / 100)
const loadavgBefore = loadavg()
const started = performance.now()
const redis = await startRedisFor(chosen)
// INFO cpu needs a plain redis:// URL (not a Sentinel one given as REDIS_URL).
const redisCpuUs = redis?.url.startsWith('redis://') ? redisCpuReader(redis.url) : undefined
/** @type {({ relay: string, wire: string, pairs: number } & Awaited<ReturnType<typeof compareRelays>>['rows'][string])[]} */
const results = []
/** @type {({ pairs: number } & Record<string, number>)[]} */
const ratios = []
/** @type {({ pairs: number } & Record<string, number>)[]} */
const cpuRatios = []
/** @type {{ pairs: number, [key: string]: number | number[] }[]} */
const roundRatios = []
try {
  for (const pairs of pairCounts) {
    const measured = await compareRelays(
      chosen,
      { pairs, mode: 'pingpong', durationMs },
      redis
        ? {
            rounds,
            redisUrl: redis.url,
            keyPrefix: `${redis.keyPrefix}generations:${pairs}:`,
            ...(redisCpuUs ? { redisCpuUs } : {}),
          }
        : { rounds },
    )
    for (const [name, row] of Object.entries(measured.rows)) {
      const { wire } = /** @type {RelaySetup} */ (relays[name])
      results.push({ relay: name.slice(wire.length + 1), wire, pairs, ...row })
    }
    /** @type {Record<string, number>} */
    const msgs = {}
    /** @type {Record<string, number>} */
    const cpu = {}
    /** @type {Record<string, number[]>} */
    const perRound = {}
    for (const [key, [name, baseline]] of Object.entries(comparisons)) {
      const a = measured.samples[name]
      const b = measured.samples[baseline]
      if (!a || !b) continue
      // CPU: every serving process's, the relay's and Redis's together, so a relay on Redis pays for what Redis does.
      const ratio = relayRatio(
        { samples: measured.samples, cpuSamples: measured.serverCpuSamples },
        name,
        baseline,
      )
      msgs[key] = ratio.msgs
      cpu[key] = ratio.cpu
      perRound[key] = ratiosPerRound(a, b)
    }
    ratios.push({ pairs, ...msgs })
    cpuRatios.push({ pairs, ...cpu })
    roundRatios.push({ pairs, ...perRound })
  }
} finally {
  await redis?.stop()
}

/** @type {Record<string, Record<string, { value: number, atLeast: number, met: boolean }>>} */
const targets = {}
for (const [key, perPairs] of Object.entries(thresholds))
  for (const entry of ratios) {
    const value = entry[key]
    const atLeast = perPairs[entry.pairs]
    if (value === undefined || atLeast === undefined) continue
    targets[key] ??= {}
    targets[key][`pairs${entry.pairs}`] = { value, atLeast, met: value >= atLeast }
  }
const sum = (/** @type {'lost' | 'duplicated' | 'refused'} */ key) =>
  results.reduce((total, r) => total + r[key], 0)

console.log(
  JSON.stringify({
    bench: 'bridge-generations',
    node: process.version,
    cpus: os.cpus().length,
    loadavg: { before: loadavgBefore, after: loadavg() },
    durationMs,
    rounds,
    seconds: Math.round((performance.now() - started) / 1000),
    results,
    ratios,
    cpuRatios,
    roundRatios,
    targets,
    allMet:
      Object.keys(targets).length > 0 &&
      Object.values(targets).every((perPairs) => Object.values(perPairs).every((t) => t.met)),
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    refused: sum('refused'),
  }),
)
