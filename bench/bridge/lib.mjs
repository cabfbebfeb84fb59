// Shared pieces of the bridge benchmarks: relay processes and the load generator. redis-server comes from the test
// kit (`@pairlink/test-kit/redis`, built: run `node scripts/build.mjs` first).
import { fork } from 'node:child_process'
import { createPrivateKey, createPublicKey, randomBytes, randomUUID, sign } from 'node:crypto'
import { createRequire } from 'node:module'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startRedis } from '@pairlink/test-kit/redis'
import { interleave, median, pairedRatio } from '../measure.mjs'

/** @typedef {import('ws').WebSocket} WebSocket */
/** @typedef {'minimal' | 'minimal-no-answer' | 'minimal-linked' | 'memory' | 'memory-limited' | 'redis' | 'redis-wait' | 'redis-nolinks' | 'baseline-memory' | 'baseline-redis'} RelayKind */
/** @typedef {keyof typeof wires} WireName */
/**
 * What one load run measured (`refused`: requests the relay answered with an error; `relayCpuUsPerMsg`: the relay
 * processes' CPU time over the measured window per message delivered in it, 0 when not measured; `relaySyscallsPerMsg`:
 * their read and write system calls over the same window per message, 0 when not measured; `redisCpuUsPerMsg`:
 * redis-server's CPU time over the same window per message, 0 when not measured).
 * @typedef {{ msgsPerSec: number, p50Ms: number, p99Ms: number, maxMs: number, lost: number, duplicated: number, refused: number, relayCpuUsPerMsg: number, relaySyscallsPerMsg: number, redisCpuUsPerMsg: number }} RunResult
 * @typedef {{ cpuUs: number, syscalls: number, redisCpuUs?: number }} RelayUsage
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
  // `baseline-…`: the same kind served by another checkout's build (BENCH_BASELINE_DIR, e.g. a worktree of an earlier
  // commit, built), to weigh a change against what it replaces in one run.
  const baseline = kind.startsWith('baseline-')
  const dir = process.env.BENCH_BASELINE_DIR
  if (baseline && !dir)
    throw new Error(`${kind} needs BENCH_BASELINE_DIR (a built checkout to compare against)`)
  const script = baseline
    ? pathToFileURL(join(/** @type {string} */ (dir), 'bench/bridge/server.mjs'))
    : new URL('./server.mjs', import.meta.url)
  const args = [
    baseline ? kind.slice('baseline-'.length) : kind,
    redisUrl,
    // A baseline keeps its Redis keys apart: another build may lay them out differently.
    baseline ? `${keyPrefix}baseline:` : keyPrefix,
    JSON.stringify(options),
  ]
  const child = fork(script, args, {
    execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const { port, linkPort } = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(/** @type {{ port: number, linkPort?: number }} */ (message)))
    child.once('exit', (code) => reject(new Error(`relay ${kind} exited with ${code}`)))
  })
  /** @param {string} type @param {Record<string, unknown>} [fields] @returns {Promise<any>} */
  const ask = (type, fields = {}) =>
    new Promise((resolve) => {
      child.once('message', resolve)
      child.send({ type, ...fields })
    })
  return {
    url: `ws://127.0.0.1:${port}`,
    /** Where a `minimal-linked` relay takes its link (undefined for every other kind). @type {number | undefined} */
    linkPort,
    /**
     * Links this `minimal-linked` relay to another: it dials `port` (the other's `linkPort`), or, without one, resolves
     * once the other dialled it.
     * @param {number} [port]
     */
    link: (port) => ask('link', port === undefined ? {} : { port }),
    /** The relay's process id (for /proc/PID/status). */
    pid: /** @type {number} */ (child.pid),
    /** RSS after a GC, bytes. */
    rss: async () => (await ask('rss')).rss,
    /** `process.memoryUsage()` after a GC. @returns {Promise<NodeJS.MemoryUsage>} */
    memory: () => ask('rss'),
    /**
     * The relay's event-loop delay since the last call (p99 and max, ms): how long it held every socket at a time.
     * @returns {Promise<{ p99Ms: number, maxMs: number }>}
     */
    loopDelay: () => ask('loop'),
    /** CPU time (user + system) the relay process used so far, µs, and its read and write system calls (Linux). */
    usage: async () => {
      const { user, system, syscalls } = /** @type {NodeJS.CpuUsage & { syscalls: number }} */ (
        await ask('cpu')
      )
      return { cpuUs: user + system, syscalls }
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ type: 'stop' })
      await Promise.race([exited, sleep(3_000)])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

/**
 * Opens `count` sockets (at most `concurrency` handshakes at once), as `wire`'s clients do: v1 Node clients (query, no
 * slash) or v2 SDK clients (`?auth=` with a token of their own). With several URLs, socket i goes to url i mod n (pairs
 * then straddle nodes). Every frame goes to `wire.onFrame` first (v2 acks its pushes there), then to `onMessage`.
 * @param {string | string[]} urls
 * @param {number} count
 * `queryOf` replaces the wire's query (tokens made beforehand, to time them apart).
 * @param {{ onMessage?: (index: number, text: string) => void, concurrency?: number, localAddressOf?: (index: number) => string | undefined, wire?: WireName, queryOf?: (index: number, url: string) => string }} [options]
 * @returns {Promise<WebSocket[]>}
 */
export async function openSockets(urls, count, options = {}) {
  const { onMessage = () => {}, concurrency = 200, localAddressOf = () => undefined } = options
  const wire = wires[options.wire ?? 'v1']
  const queryOf =
    options.queryOf ?? ((/** @type {number} */ _index, /** @type {string} */ url) => wire.query(url))
  const list = [urls].flat()
  /** @type {WebSocket[]} */
  const sockets = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      const localAddress = localAddressOf(index)
      const url = /** @type {string} */ (list[index % list.length])
      const ws = new WebSocket(url + queryOf(index, url), {
        perMessageDeflate: false,
        // A handshake that never completes fails the bench instead of hanging it.
        handshakeTimeout: 60_000,
        ...(localAddress ? { localAddress } : {}),
      })
      ws.on('message', (data) => {
        const text = data.toString()
        wire.onFrame(ws, text)
        onMessage(index, text)
      })
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

// ~300 bytes of payload (v1 `payload`, v2 `message`), the size of a small v1 envelope; it starts with `seq:stamp:` so
// parsing is an indexOf.
const PADDING = 'a'.repeat(240)
let nextRequestId = 1

/**
 * How the load generator's clients speak. `v1`: v1 frames (`sub`/`pub`, silent). `v2`: the v2 SDK's JSON-RPC
 * (`irn_subscribe`, `irn_publish` with the ttl and tag of a session request); every push (a frame with a `method`) is
 * acked as the SDK does, and each socket is a client of its own (its own Ed25519 key and relay JWT).
 */
export const wires = {
  v1: {
    topic: () => randomUUID(),
    query: (/** @type {string} */ _url) => '?env=node&protocol=wc&version=1',
    /** @param {string} topic */
    sub: (topic) => JSON.stringify({ topic, type: 'sub', payload: '', silent: true }),
    /** @param {string} topic @param {number} seq @param {number} stamp */
    pub: (topic, seq, stamp) =>
      `{"topic":"${topic}","type":"pub","payload":"${seq}:${stamp}:${PADDING}","silent":true}`,
    payloadKey: '"payload":"',
    // v1 never answers a `sub`.
    answersSub: false,
    onFrame: (/** @type {WebSocket} */ _ws, /** @type {string} */ _text) => {},
  },
  v2: {
    topic: () => randomBytes(32).toString('hex'),
    query: (/** @type {string} */ url) => `?auth=${relayJwt(url)}`,
    /** @param {string} topic */
    sub: (topic) =>
      `{"id":${nextRequestId++},"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"${topic}"}}`,
    /** @param {string} topic @param {number} seq @param {number} stamp */
    pub: (topic, seq, stamp) =>
      `{"id":${nextRequestId++},"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"${topic}","message":"${seq}:${stamp}:${PADDING}","ttl":300,"tag":1108}}`,
    payloadKey: '"message":"',
    answersSub: true,
    // A push is a request: the relay's `irn_subscription` (or, through the minimal relay, the publish frame itself),
    // whose id comes first as both write it. Answers (results of our own requests) carry no method.
    onFrame: (/** @type {WebSocket} */ ws, /** @type {string} */ text) => {
      if (text.indexOf('"method":') === -1) return
      ws.send(`{"id":${text.slice(6, text.indexOf(','))},"jsonrpc":"2.0","result":true}`)
    },
  },
}

// DER of an Ed25519 private key up to its 32-byte seed (RFC 8410).
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex')
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
/** @param {Uint8Array} bytes  base58btc (no leading zero bytes here: the multicodec prefix starts with 0xed) */
function base58(bytes) {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let text = ''
  for (; n > 0n; n /= 58n) text = BASE58[Number(n % 58n)] + text
  return text
}

/**
 * A relay JWT as the v2 SDK signs one (relay-auth's format): a fresh Ed25519 key, `iss` its did:key, `aud` the
 * relay's URL. node:crypto signs, so 10 000 clients cost the load generator little.
 * @param {string} aud
 */
export function relayJwt(aud) {
  // From a random seed, not generateKeyPairSync: on Node 20, a GC inside a JWK export that finalises a key-generation
  // job deadlocks the main thread (seen at a few thousand keys).
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, randomBytes(32)]),
    format: 'der',
    type: 'pkcs8',
  })
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32)
  const iss = `did:key:z${base58(new Uint8Array([0xed, 0x01, ...raw]))}`
  const iat = Math.floor(Date.now() / 1000)
  const encode = (/** @type {unknown} */ value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const data = `${encode({ alg: 'EdDSA', typ: 'JWT' })}.${encode({ iss, sub: randomBytes(32).toString('hex'), aud, iat, exp: iat + 86_400 })}`
  return `${data}.${sign(null, Buffer.from(data), privateKey).toString('base64url')}`
}

/**
 * Opens `count` sockets on `url`, each subscribed to a topic of its own, and resolves once every subscription is live:
 * a v2 client has its answer; v1 answers nothing, so a message published to the last socket's topic after every
 * `sub` was sent must reach it. A v2 client's token is made on the way unless `queryOf` brings one. Resolves with the
 * sockets and `subscribeMs`, the time from the first `sub` sent (every socket open) until then.
 * @param {string} url
 * @param {number} count
 * @param {{ wire?: WireName, queryOf?: (index: number, url: string) => string }} [options]
 * @returns {Promise<{ sockets: WebSocket[], subscribeMs: number }>}
 */
export async function openIdle(url, count, { wire: wireName = 'v1', queryOf } = {}) {
  const wire = wires[wireName]
  const topics = Array.from({ length: count }, () => wire.topic())
  let answered = 0
  let lastReached = false
  const sockets = await openSockets(url, count, {
    wire: wireName,
    ...(queryOf ? { queryOf } : {}),
    onMessage: (index, text) => {
      if (text.indexOf('"result":') !== -1) answered++
      else if (index === count - 1) lastReached = true
    },
  })
  const started = performance.now()
  sockets.forEach((ws, i) => {
    ws.send(wire.sub(/** @type {string} */ (topics[i])))
  })
  if (wire.answersSub) await until(() => answered === count, 'every subscription answered', 60_000)
  else {
    sockets[0]?.send(wire.pub(/** @type {string} */ (topics[count - 1]), -1, 0))
    await until(() => lastReached, 'the last subscription', 60_000)
  }
  return { sockets, subscribeMs: performance.now() - started }
}

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
 * `wire` is how the clients speak (v1 frames by default; `v2`: publish → push → ack). `relayUsage` reads the relay
 * processes' CPU time (µs) and system calls, for the CPU and system calls per message: on a shared machine the relay's
 * and the load generator's CPU compete, so msgs/s also counts the load generator's work; CPU per message counts the
 * relay's alone, and CPU per system call shows what the kernel's hops cost it.
 * @param {string | string[]} urls
 * With `spreadAddresses`, each pair connects from a loopback address of its own (127.1.x.y, Linux), as separate
 * clients would, so per-address limits count pairs rather than the whole load generator. With `keeps`, the relay keeps
 * a message published before its topic's subscription and pushes it on subscribe (Pairlink's v2 relay), so the
 * barrier's probes are sent once: re-sent ones would all be kept and pushed, a backlog in the measured window.
 * @param {{ pairs: number, mode: 'pingpong' | 'streaming', durationMs: number, warmupMs?: number, window?: number, spreadAddresses?: boolean, wire?: WireName, keeps?: boolean, relayUsage?: () => Promise<RelayUsage> }} options
 * @returns {Promise<RunResult>}
 */
export async function runPairs(
  urls,
  {
    pairs,
    mode,
    durationMs,
    warmupMs = 300,
    window = 32,
    spreadAddresses = false,
    wire: wireName = 'v1',
    keeps = false,
    relayUsage = async () => ({ cpuUs: 0, syscalls: 0 }),
  },
) {
  const wire = wires[wireName]
  const { pub } = wire
  const topics = Array.from({ length: pairs * 2 }, () => wire.topic())
  const state = topics.map(() => ({ sent: 0, received: 0, lastSeq: -1, duplicated: 0, probe: false }))
  /** @param {number} index */
  const at = (index) => /** @type {(typeof state)[number]} */ (state[index])
  /** @type {number[]} */
  const latencies = []
  let measuring = false
  let running = true
  let delivered = 0
  let refused = 0
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
    // A v2 error answer (its `message` is no payload); the padding never contains this.
    if (text.indexOf('"error":') !== -1) {
      refused++
      return
    }
    let start = text.indexOf(wire.payloadKey)
    if (start === -1) return
    start += wire.payloadKey.length
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
  sockets = await openSockets(urls, pairs * 2, {
    onMessage,
    wire: wireName,
    ...(spreadAddresses ? { localAddressOf: pairAddress } : {}),
  })
  sockets.forEach((ws, i) => {
    ws.send(wire.sub(/** @type {string} */ (topics[i])))
  })
  // Barrier: every socket receives a probe, so every subscription is live. The minimal relay keeps no queue and drops
  // a probe sent before its peer's `sub` was handled, so a probe not yet received is sent again every 100 ms; a relay that
  // `keeps` pushes it on subscribe, so it gets one (a probe's seq is -1, so probes count for nothing).
  const probe = () =>
    sockets.forEach((ws, i) => {
      if (!at(i ^ 1).probe) ws.send(pub(/** @type {string} */ (topics[i ^ 1]), -1, 0))
    })
  for (let i = 0; i < 300 && !state.every((s) => s.probe); i++) {
    if (i === 0 || !keeps) probe()
    await until(() => state.every((s) => s.probe), 'every probe', 100).catch(() => {})
  }
  if (!state.every((s) => s.probe)) throw new Error('not every subscription became live within 30 s')

  for (let p = 0; p < pairs; p++) {
    if (mode === 'pingpong') send(2 * p, 0)
    else for (let k = 0; k < window; k++) send(2 * p, k)
  }
  await sleep(warmupMs)
  const before = await relayUsage()
  measuring = true
  const started = performance.now()
  await sleep(durationMs)
  measuring = false
  const after = await relayUsage()
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
    refused,
    relayCpuUsPerMsg: delivered ? round((after.cpuUs - before.cpuUs) / delivered) : 0,
    relaySyscallsPerMsg: delivered ? round((after.syscalls - before.syscalls) / delivered) : 0,
    redisCpuUsPerMsg: delivered ? round(((after.redisCpuUs ?? 0) - (before.redisCpuUs ?? 0)) / delivered) : 0,
  }
}

/** @typedef {{ nodes: RelayKind[], wire: WireName }} RelaySetup  a relay's processes (server.mjs kinds) and its clients' wire */

/** @param {RelayKind} kind  whether the relay keeps its state in Redis */
const onRedis = (kind) => kind.includes('redis')

/**
 * A redis-server when one of `relays` needs one (`startRedis` of the test kit, `REDIS_URL` when set), else undefined.
 * @param {Record<string, RelaySetup>} relays
 */
export async function startRedisFor(relays) {
  return Object.values(relays).some((relay) => relay.nodes.some(onRedis)) ? startRedis() : undefined
}

/**
 * A reader of redis-server's CPU time so far (`INFO cpu`: used_cpu_user + used_cpu_sys, µs), each call on a connection
 * of its own (RESP, `AUTH` first when `url` has a password; a redis:// URL, not a Sentinel one). On a Redis shared
 * with other work (`REDIS_URL`) it counts that work too.
 * @param {string} url
 * @returns {() => Promise<number>}
 */
export function redisCpuReader(url) {
  const { hostname, port, username, password } = new URL(url)
  /** @param {string[]} words */
  const command = (...words) =>
    `*${words.length}\r\n${words.map((w) => `$${Buffer.byteLength(w)}\r\n${w}\r\n`).join('')}`
  const auth = password
    ? command('AUTH', ...(username ? [decodeURIComponent(username)] : []), decodeURIComponent(password))
    : ''
  const request = auth + command('INFO', 'cpu')
  return () =>
    new Promise((resolve, reject) => {
      const socket = createConnection(Number(port || 6379), hostname, () => socket.write(request))
      socket.setEncoding('utf8')
      let text = ''
      socket.on('data', (/** @type {string} */ chunk) => {
        text += chunk
        if (text.startsWith('-')) {
          socket.destroy()
          reject(new Error(`redis-server answered ${text.split('\r\n')[0]}`))
          return
        }
        // AUTH's `+OK`, then INFO's bulk string ($length, the text); INFO's text is ASCII, so length is characters.
        const reply = auth ? text.slice(text.indexOf('\r\n') + 2) : text
        const header = /^\$(\d+)\r\n/.exec(reply)
        if (!header || reply.length < header[0].length + Number(header[1])) return
        socket.end()
        const seconds = (/** @type {string} */ name) =>
          Number(new RegExp(`${name}:([\\d.]+)`).exec(reply)?.[1] ?? 0)
        resolve(Math.round((seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6))
      })
      socket.once('error', reject)
    })
}

/**
 * One load configuration through each relay of `relays`, taking turns `rounds` times (`interleave`), each run on fresh
 * relay processes (no state or garbage carried over). With several nodes, every pair straddles them (two
 * `minimal-linked` nodes are linked first). Resolves with each relay's row (median msgs/s, latencies and relay CPU per
 * message, and with `redisCpuUs` (a `redisCpuReader`) redis-server's CPU per message for a relay on Redis; lost,
 * duplicated and refused summed over the runs), its msgs/s per round (`samples`), its relay CPU per message per round
 * (`cpuSamples`) and its relay and Redis CPU together per message per round (`serverCpuSamples`: every process that
 * serves the clients), so a ratio can be taken within each round.
 * @template {string} Name
 * @param {Record<Name, RelaySetup>} relays
 * @param {{ pairs: number, mode: 'pingpong' | 'streaming', durationMs: number }} load
 * @param {{ rounds: number, redisUrl?: string, keyPrefix?: string, redisCpuUs?: () => Promise<number> }} options
 */
export async function compareRelays(relays, load, { rounds, redisUrl, keyPrefix, redisCpuUs }) {
  const names = /** @type {Name[]} */ (Object.keys(relays))
  /** @type {Record<string, RunResult[]>} */
  const runs = Object.fromEntries(names.map((name) => [name, []]))
  /** @param {Name} name */
  const readsRedis = (name) => redisCpuUs !== undefined && relays[name].nodes.some(onRedis)
  /** @param {Name} name */
  const measure = (name) => async () => {
    const { nodes, wire } = relays[name]
    const servers = await Promise.all(nodes.map((kind) => startRelay(kind, redisUrl, keyPrefix)))
    try {
      const [first, second] = servers
      if (servers.length === 2 && first?.linkPort !== undefined && second?.linkPort !== undefined)
        await Promise.all([first.link(second.linkPort), second.link()])
      const redisCpu = readsRedis(name) ? redisCpuUs : undefined
      const relayUsage = async () => {
        const [usages, redisUs] = await Promise.all([
          Promise.all(servers.map((server) => server.usage())),
          redisCpu?.(),
        ])
        return {
          ...usages.reduce((a, b) => ({ cpuUs: a.cpuUs + b.cpuUs, syscalls: a.syscalls + b.syscalls })),
          ...(redisUs === undefined ? {} : { redisCpuUs: redisUs }),
        }
      }
      const run = await runPairs(
        servers.map((server) => server.url),
        {
          ...load,
          wire,
          keeps: wire === 'v2' && !nodes.some((kind) => kind.startsWith('minimal')),
          relayUsage,
        },
      )
      runs[name]?.push(run)
      return run.msgsPerSec
    } finally {
      await Promise.all(servers.map((server) => server.stop()))
    }
  }
  const { medians, samples } = await interleave(
    /** @type {Record<Name, () => Promise<number>>} */ (
      Object.fromEntries(names.map((name) => [name, measure(name)]))
    ),
    { rounds },
  )
  /** @param {Name} name */
  const row = (name) => {
    const list = runs[name] ?? []
    const of = /** @param {(run: RunResult) => number} pick */ (pick) => median(list.map(pick))
    const sum = /** @param {(run: RunResult) => number} pick */ (pick) =>
      list.reduce((total, run) => total + pick(run), 0)
    return {
      msgsPerSec: Math.round(medians[name]),
      p50Ms: of((run) => run.p50Ms),
      p99Ms: of((run) => run.p99Ms),
      maxMs: of((run) => run.maxMs),
      relayCpuUsPerMsg: of((run) => run.relayCpuUsPerMsg),
      relaySyscallsPerMsg: of((run) => run.relaySyscallsPerMsg),
      ...(readsRedis(name) ? { redisCpuUsPerMsg: of((run) => run.redisCpuUsPerMsg) } : {}),
      lost: sum((run) => run.lost),
      duplicated: sum((run) => run.duplicated),
      refused: sum((run) => run.refused),
    }
  }
  return {
    rows: /** @type {Record<Name, ReturnType<typeof row>>} */ (
      Object.fromEntries(names.map((name) => [name, row(name)]))
    ),
    samples,
    cpuSamples: /** @type {Record<Name, number[]>} */ (
      Object.fromEntries(names.map((name) => [name, (runs[name] ?? []).map((run) => run.relayCpuUsPerMsg)]))
    ),
    serverCpuSamples: /** @type {Record<Name, number[]>} */ (
      Object.fromEntries(
        names.map((name) => [
          name,
          (runs[name] ?? []).map((run) => run.relayCpuUsPerMsg + run.redisCpuUsPerMsg),
        ]),
      )
    ),
  }
}

/**
 * `name` against `baseline`, measured in the same rounds: the median of the per-round msgs/s ratios, and the
 * baseline's CPU per message over this one's (`cpu`: what the msgs/s ratio would be were the relay alone on its
 * CPU; the load generator shares the machine's), from `compareRelays`'s `samples` and `cpuSamples` (or
 * `serverCpuSamples`).
 * @param {{ samples: Record<string, number[]>, cpuSamples: Record<string, number[]> }} measured
 * @param {string} name
 * @param {string} baseline
 */
export function relayRatio({ samples, cpuSamples }, name, baseline) {
  return {
    msgs: pairedRatio(samples[name] ?? [], samples[baseline] ?? []),
    cpu: pairedRatio(cpuSamples[baseline] ?? [], cpuSamples[name] ?? []),
  }
}

/**
 * The cross-node figures of a relay bench: per ping-pong configuration at 1 and 100 pairs, two nodes against one node
 * on the same backend (`vsRedis`, the target's ratio) and against one node in memory.
 * @param {Record<string, unknown>[]} ratios
 * @param {{ twoVsOne: string, twoVsMemory: string }} keys
 */
export function crossNodeRatios(ratios, { twoVsOne, twoVsMemory }) {
  return Object.fromEntries(
    ratios
      .filter((r) => (r.mode ?? 'pingpong') === 'pingpong' && (r.pairs === 1 || r.pairs === 100))
      .filter((r) => r[twoVsOne] !== undefined)
      .map((r) => [
        `pingpong${r.pairs}`,
        { vsRedis: /** @type {number} */ (r[twoVsOne]), vsMemory: /** @type {number} */ (r[twoVsMemory]) },
      ]),
  )
}
