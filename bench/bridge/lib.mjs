// Shared pieces of the bridge benchmarks: relay processes and the load generator. redis-server comes from the test
// kit (`@pairlink/test-kit/redis`, built: run `node scripts/build.mjs` first).
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'

/** @typedef {import('ws').WebSocket} WebSocket */
/** @typedef {'minimal' | 'memory' | 'memory-limited' | 'redis'} RelayKind */
/**
 * What one load run measured.
 * @typedef {{ msgsPerSec: number, p50Ms: number, p99Ms: number, maxMs: number, lost: number, duplicated: number }} RunResult
 */

// The bridge's own ws (v8); the repository root holds an older one for the v1 clients.
const { WebSocket } = /** @type {typeof import('ws')} */ (
  createRequire(new URL('../../packages/bridge/package.json', import.meta.url))('ws')
)

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts a relay (`minimal`, `memory` or `redis`) in a child process.
 * @param {RelayKind} kind
 * @param {string} [redisUrl]
 * @param {string} [keyPrefix]
 * @param {Record<string, unknown>} [options]  bridge server options besides the bench's own (not for `minimal`)
 */
export async function startRelay(kind, redisUrl = '', keyPrefix = `bench:${randomUUID()}:`, options = {}) {
  const args = [kind, redisUrl, keyPrefix, JSON.stringify(options)]
  const child = fork(new URL('./server.mjs', import.meta.url), args, {
    execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(/** @type {{ port: number }} */ (message).port))
    child.once('exit', (code) => reject(new Error(`relay ${kind} exited with ${code}`)))
  })
  /** @param {string} type @returns {Promise<{ rss: number }>} */
  const ask = (type) =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(/** @type {{ rss: number }} */ (message)))
      child.send({ type })
    })
  return {
    url: `ws://127.0.0.1:${port}`,
    rss: async () => (await ask('rss')).rss,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ type: 'stop' })
      await Promise.race([exited, sleep(3_000)])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

/**
 * Opens `count` sockets (at most `concurrency` handshakes at once), as v1 Node clients do (query, no slash).
 * With several URLs, socket i goes to url i mod n (pairs then straddle nodes).
 * @param {string | string[]} urls
 * @param {number} count
 * @param {(index: number, text: string) => void} [onMessage]
 * @param {number} [concurrency]
 * @returns {Promise<WebSocket[]>}
 */
export async function openSockets(
  urls,
  count,
  onMessage = () => {},
  concurrency = 200,
  localAddressOf = /** @type {(index: number) => string | undefined} */ (() => undefined),
) {
  const list = [urls].flat()
  /** @type {WebSocket[]} */
  const sockets = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      const localAddress = localAddressOf(index)
      const ws = new WebSocket(`${list[index % list.length]}?env=node&protocol=wc&version=1`, {
        perMessageDeflate: false,
        ...(localAddress ? { localAddress } : {}),
      })
      ws.on('message', (data) => onMessage(index, data.toString()))
      await new Promise((resolve, reject) => {
        ws.once('open', resolve)
        ws.once('error', reject)
      })
      sockets[index] = ws
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  return sockets
}

/** @param {string} topic */
export const sub = (topic) => JSON.stringify({ topic, type: 'sub', payload: '', silent: true })
// ~300 bytes, the size of a small v1 envelope; the payload starts with `seq:stamp:` so parsing is an indexOf.
const PADDING = 'a'.repeat(240)
/** @param {string} topic @param {number} seq @param {number} stamp */
const pub = (topic, seq, stamp) =>
  `{"topic":"${topic}","type":"pub","payload":"${seq}:${stamp}:${PADDING}","silent":true}`

/** @param {number[]} sorted @param {number} p */
function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))])
}

/**
 * Resolves once `check()` holds, polling every 10 ms; rejects after `timeoutMs`.
 * @param {() => boolean} check
 * @param {string} what
 * @param {number} [timeoutMs]
 */
async function until(check, what, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`)
    await sleep(10)
  }
}

/**
 * Pairs of sockets relaying through `urls` for `durationMs`. `pingpong`: one message in flight per pair, echoed back;
 * `streaming`: one side sends with up to `window` messages in flight. Returns msgs/s, latency and loss figures.
 * @param {string | string[]} urls
 * With `spreadAddresses`, each pair connects from a loopback address of its own (127.1.x.y, Linux), as separate
 * clients would, so per-address limits count pairs rather than the whole load generator.
 * @param {{ pairs: number, mode: 'pingpong' | 'streaming', durationMs: number, warmupMs?: number, window?: number, spreadAddresses?: boolean }} options
 * @returns {Promise<RunResult>}
 */
export async function runPairs(
  urls,
  { pairs, mode, durationMs, warmupMs = 300, window = 32, spreadAddresses = false },
) {
  const topics = Array.from({ length: pairs * 2 }, () => randomUUID())
  const state = topics.map(() => ({ sent: 0, received: 0, lastSeq: -1, duplicated: 0, probe: false }))
  /** @param {number} index */
  const at = (index) => /** @type {(typeof state)[number]} */ (state[index])
  /** @type {number[]} */
  const latencies = []
  let measuring = false
  let running = true
  let delivered = 0
  /** @type {WebSocket[]} */
  let sockets = []

  /** @param {number} from @param {number} seq */
  const send = (from, seq) => {
    const to = from ^ 1
    at(from).sent++
    sockets[from]?.send(pub(/** @type {string} */ (topics[to]), seq, performance.now()))
  }
  /** @param {number} index @param {string} text */
  const onMessage = (index, text) => {
    const start = text.indexOf('"payload":"') + 11
    const colon = text.indexOf(':', start)
    const seq = Number(text.slice(start, colon))
    const stamp = Number(text.slice(colon + 1, text.indexOf(':', colon + 1)))
    const s = at(index)
    if (seq < 0) {
      s.probe = true
      return
    }
    if (seq <= s.lastSeq) s.duplicated++
    else s.lastSeq = seq
    s.received++
    if (measuring) {
      delivered++
      latencies.push(performance.now() - stamp)
    }
    if (!running) return
    // The sender of this message is index ^ 1.
    if (mode === 'pingpong') send(index, s.lastSeq + 1)
    else {
      const sender = index ^ 1
      while (at(sender).sent - s.received < window) send(sender, at(sender).sent)
    }
  }

  /** @param {number} index */
  const pairAddress = (index) => `127.1.${Math.floor((index >> 1) / 250)}.${((index >> 1) % 250) + 1}`
  sockets = await openSockets(urls, pairs * 2, onMessage, 200, spreadAddresses ? pairAddress : undefined)
  sockets.forEach((ws, i) => {
    ws.send(sub(/** @type {string} */ (topics[i])))
  })
  // Barrier: every socket receives a probe, so every subscription is live. The minimal relay keeps no queue and drops
  // a probe sent before its peer's `sub` was handled, so a probe not yet received is sent again every 100 ms.
  const probe = () =>
    sockets.forEach((ws, i) => {
      if (!at(i ^ 1).probe) ws.send(pub(/** @type {string} */ (topics[i ^ 1]), -1, 0))
    })
  for (let i = 0; i < 300 && !state.every((s) => s.probe); i++) {
    probe()
    await until(() => state.every((s) => s.probe), 'every probe', 100).catch(() => {})
  }
  if (!state.every((s) => s.probe)) throw new Error('not every subscription became live within 30 s')

  for (let p = 0; p < pairs; p++) {
    if (mode === 'pingpong') send(2 * p, 0)
    else for (let k = 0; k < window; k++) send(2 * p, k)
  }
  await sleep(warmupMs)
  measuring = true
  const started = performance.now()
  await sleep(durationMs)
  measuring = false
  running = false
  const elapsed = performance.now() - started
  // Let what is in flight arrive before counting losses: wait while it still makes progress (at most 10 s).
  const arrived = () => state.reduce((sum, s) => sum + s.received, 0)
  const pending = () => state.some((s, index) => at(index ^ 1).sent > s.received)
  for (let i = 0, last = -1, stalled = 0; i < 100 && pending() && stalled < 10; i++) {
    stalled = arrived() === last ? stalled + 1 : 0
    last = arrived()
    await sleep(100)
  }
  let sent = 0
  let received = 0
  let duplicated = 0
  for (const s of state) {
    sent += s.sent
    received += s.received - s.duplicated
    duplicated += s.duplicated
  }
  for (const ws of sockets) ws.terminate()
  latencies.sort((a, b) => a - b)
  /** @param {number} value */
  const round = (value) => Math.round(value * 1000) / 1000
  return {
    msgsPerSec: Math.round((delivered / elapsed) * 1000),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
    lost: sent - received,
    duplicated,
  }
}
