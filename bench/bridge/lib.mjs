// Shared pieces of the bridge benchmarks: relay processes, a throw-away redis-server, the load generator.
import { fork, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'

const { WebSocket } = createRequire(new URL('../../packages/bridge/package.json', import.meta.url))('ws')

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** `REDIS_URL` when set, else a redis-server of our own on a free loopback port, stopped by PID. */
export async function startRedis() {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} }
  const port = await freePort()
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 5_000)
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(child.pid, 'SIGTERM')
      await exited
    },
  }
}

/** Starts a relay (`minimal`, `memory` or `redis`) in a child process. */
export async function startRelay(kind, redisUrl = '', keyPrefix = `bench:${randomUUID()}:`) {
  const child = fork(new URL('./server.mjs', import.meta.url), [kind, redisUrl, keyPrefix], {
    execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port))
    child.once('exit', (code) => reject(new Error(`relay ${kind} exited with ${code}`)))
  })
  const ask = (type) =>
    new Promise((resolve) => {
      child.once('message', resolve)
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
 */
export async function openSockets(urls, count, onMessage = () => {}, concurrency = 200) {
  const list = [urls].flat()
  const sockets = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      const ws = new WebSocket(`${list[index % list.length]}?env=node&protocol=wc&version=1`, {
        perMessageDeflate: false,
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

const sub = (topic) => JSON.stringify({ topic, type: 'sub', payload: '', silent: true })
// ~300 bytes, the size of a small v1 envelope; the payload starts with `seq:stamp:` so parsing is an indexOf.
const PADDING = 'a'.repeat(240)
const pub = (topic, seq, stamp) =>
  `{"topic":"${topic}","type":"pub","payload":"${seq}:${stamp}:${PADDING}","silent":true}`

function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/**
 * Pairs of sockets relaying through `url` for `durationMs`. `pingpong`: one message in flight per pair, echoed back;
 * `streaming`: one side sends with up to `window` messages in flight. Returns msgs/s, latency and loss figures.
 */
export async function runPairs(urls, { pairs, mode, durationMs, warmupMs = 300, window = 32 }) {
  const topics = Array.from({ length: pairs * 2 }, () => randomUUID())
  const state = topics.map(() => ({ sent: 0, received: 0, lastSeq: -1, duplicated: 0 }))
  const latencies = []
  let measuring = false
  let running = true
  let delivered = 0
  let sockets = []

  const send = (from, seq) => {
    const to = from ^ 1
    state[from].sent++
    sockets[from].send(pub(topics[to], seq, performance.now()))
  }
  const onMessage = (index, text) => {
    const start = text.indexOf('"payload":"') + 11
    const colon = text.indexOf(':', start)
    const seq = Number(text.slice(start, colon))
    const stamp = Number(text.slice(colon + 1, text.indexOf(':', colon + 1)))
    if (seq < 0) {
      state[index].probe = true
      return
    }
    const s = state[index]
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
      while (state[sender].sent - s.received < window) send(sender, state[sender].sent)
    }
  }

  sockets = await openSockets(urls, pairs * 2, onMessage)
  for (let i = 0; i < sockets.length; i++) sockets[i].send(sub(topics[i]))
  // Barrier: every socket receives a probe, so every subscription is live (or drained from the queue).
  for (let i = 0; i < sockets.length; i++) sockets[i].send(pub(topics[i ^ 1], -1, 0))
  for (let i = 0; i < 500 && !state.every((s) => s.probe); i++) await sleep(10)

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
  const pending = () => state.some((s, index) => state[index ^ 1].sent > s.received)
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
