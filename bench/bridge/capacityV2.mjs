// Capacity of the v2 relay: IDLE (default 10 000) idle v2 clients on one bridge process, each with a key and relay
// JWT of its own (the relay keys its state by client id, so a shared key would understate it) and subscribed to a
// topic of its own, beside as many idle v1 sockets on a fresh bridge, in the same run. Measures the time to make the
// tokens (load generator, node:crypto), to open and subscribe every socket (the relay verifies each token), and the
// bridge's RSS and heap after a GC. Prints one JSON line. Run `node scripts/build.mjs` first. Options: IDLE, ROUNDS
// (default 3; v1 and v2 take turns, medians count).
import os from 'node:os'
import { interleave, median } from '../measure.mjs'
import { openIdle, relayJwt, startRelay } from './lib.mjs'

const idle = Number(process.env.IDLE ?? 10_000)
const rounds = Number(process.env.ROUNDS ?? 3)

/** @typedef {{ keysMs: number[], openMs: number[], rssIdleFree: number[], rss: number[], heapUsed: number[] }} Samples */
/** @type {Record<'v1' | 'v2', Samples>} */
const samples = {
  v1: { keysMs: [], openMs: [], rssIdleFree: [], rss: [], heapUsed: [] },
  v2: { keysMs: [], openMs: [], rssIdleFree: [], rss: [], heapUsed: [] },
}

/** @param {'v1' | 'v2'} wire */
const measure = (wire) => async () => {
  const server = await startRelay('memory')
  const s = samples[wire]
  try {
    s.rssIdleFree.push(await server.rss())
    let started = performance.now()
    const tokens = wire === 'v2' ? Array.from({ length: idle }, () => relayJwt(server.url)) : []
    s.keysMs.push(performance.now() - started)
    started = performance.now()
    const sockets = await openIdle(server.url, idle, {
      wire,
      ...(wire === 'v2' ? { queryOf: (/** @type {number} */ i) => `?auth=${tokens[i]}` } : {}),
    })
    const openMs = performance.now() - started
    s.openMs.push(openMs)
    const { rss, heapUsed } = await server.memory()
    s.rss.push(rss)
    s.heapUsed.push(heapUsed)
    for (const ws of sockets) ws.terminate()
    return openMs
  } finally {
    await server.stop()
  }
}

await interleave({ v1: measure('v1'), v2: measure('v2') }, { rounds })

const MB = 1_048_576
/** @param {'v1' | 'v2'} wire */
const row = (wire) => {
  const s = samples[wire]
  const rssMB = Math.round(median(s.rss) / MB)
  const rssIdleFreeMB = Math.round(median(s.rssIdleFree) / MB)
  return {
    wire,
    idleClients: idle,
    ...(wire === 'v2' ? { keysMs: Math.round(median(s.keysMs)) } : {}),
    openMs: Math.round(median(s.openMs)),
    rssIdleFreeMB,
    rssMB,
    heapUsedMB: Math.round(median(s.heapUsed) / MB),
    // What one idle client costs the relay process, beyond the process itself.
    kBPerClient: Math.round(((median(s.rss) - median(s.rssIdleFree)) / idle / 1024) * 10) / 10,
  }
}
const results = [row('v1'), row('v2')]
const v2 = /** @type {ReturnType<typeof row>} */ (results[1])
console.log(
  JSON.stringify({
    bench: 'bridge-capacity-v2',
    node: process.version,
    cpus: os.cpus().length,
    rounds,
    results,
    targets: { v2RssUnder200MB: v2.rssMB < 200 },
  }),
)
