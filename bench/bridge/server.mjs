// One relay in its own process, so the load generator never shares its CPU time: the Pairlink bridge (memory or
// Redis backend, `redisUrl` a redis:// or redis+sentinel:// URL; `memory-limited`: memory with the per-address
// budgets on), which serves the v2 relay on the same port, or the minimal `ws` relay baseline (`minimal-no-answer`:
// the same, answering no v2 publish; `minimal-linked`: the same with one plain TCP link to a second such process, the
// bare two-hop forwarder). Reports its port (and `linkPort`), answers `rss`, stops on `stop`. A fourth argument (JSON) adds bridge server options, e.g.
// `{"pingIntervalMs":1000,"pingSliceMs":1000}`.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { connect, createServer as createTcpServer } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createBridgeServer, createMemoryBackend } from '@pairlink/bridge'
import { createRedisBackend, createRedisRelayStore } from '@pairlink/bridge/redis'

/** @typedef {import('ws').WebSocket} WebSocket */

// The bridge's own ws (v8); the repository root holds an older one for the v1 clients.
const { WebSocketServer } = /** @type {typeof import('ws')} */ (
  createRequire(new URL('../../packages/bridge/package.json', import.meta.url))('ws')
)

const [kind, redisUrl = '', keyPrefix, options = '{}'] = process.argv.slice(2)

/**
 * A plain TCP connection between two minimal relays, both ways: `send` writes a frame as it came, behind its length
 * and its topic's (so the other end finds its subscribers without parsing it), and what one event-loop turn sends
 * leaves in one write (corked until `setImmediate`, as the bridge batches the frames of a turn per node); each record
 * read goes to `deliver`. No handshake, ack, numbering or queue: the least any two-node relay must do per message.
 * @param {import('node:net').Socket} socket
 * @param {(topic: string, frame: Buffer) => void} deliver
 */
function createLink(socket, deliver) {
  socket.setNoDelay(true)
  /** @type {Buffer} */
  let unread = Buffer.alloc(0)
  socket.on('data', (/** @type {Buffer} */ chunk) => {
    const buffer = unread.length > 0 ? Buffer.concat([unread, chunk]) : chunk
    let offset = 0
    // A record: frame length (u32), topic length (u16), topic (UTF-8), frame.
    while (buffer.length - offset >= 6) {
      const topicEnd = offset + 6 + buffer.readUInt16BE(offset + 4)
      const end = topicEnd + buffer.readUInt32BE(offset)
      if (end > buffer.length) break
      deliver(buffer.toString('utf8', offset + 6, topicEnd), buffer.subarray(topicEnd, end))
      offset = end
    }
    unread = buffer.subarray(offset)
  })
  let corked = false
  return {
    /** @param {string} topic @param {Buffer} frame */
    send: (topic, frame) => {
      const head = Buffer.allocUnsafe(6 + Buffer.byteLength(topic))
      head.writeUInt32BE(frame.length, 0)
      head.writeUInt16BE(head.length - 6, 4)
      head.write(topic, 6)
      if (!corked) {
        corked = true
        socket.cork()
        setImmediate(() => {
          corked = false
          socket.uncork()
        })
      }
      socket.write(head)
      socket.write(frame)
    },
  }
}

/**
 * The least work a Node relay can do: a Map of topic → sockets, no queue, no limits, no metrics. It reads v1 frames
 * (`{topic, type: 'sub' | 'pub'}`) and v2 JSON-RPC (`irn_subscribe` / `irn_publish` with `params.topic`) alike and
 * forwards a publish frame as it came, as the push; v2 requests are answered as the protocol asks (a publish `true`;
 * not with `answering` false, which no v2 SDK works with), v1 frames never are, and anything else (a v2 ack) is
 * dropped. With `linked`, it also listens for one link (`createLink`) from a second such relay, or dials one on
 * `link(port)`: a publish whose topic has no subscriber here goes over the link as it came, and a frame read from the
 * link goes to the subscribers here (the publish was answered where it was published).
 */
function createMinimalRelay({ answering = true, linked = false } = {}) {
  const server = createServer()
  const wss = new WebSocketServer({ server, perMessageDeflate: false })
  /** @type {Map<string, Set<WebSocket>>} */
  const topics = new Map()
  /** @type {ReturnType<typeof createLink> | undefined} */
  let link
  /** @type {(() => void) | undefined} */
  let onLinked
  const linkedOnce = new Promise((resolve) => {
    onLinked = () => resolve(undefined)
  })
  /** @param {string} topic @param {Buffer} frame */
  const deliver = (topic, frame) => {
    const set = topics.get(topic)
    // A Buffer goes out as a text frame, as it came in.
    if (set) for (const peer of set) if (peer.readyState === 1) peer.send(frame, { binary: false })
  }
  /** @param {import('node:net').Socket} socket */
  const attach = (socket) => {
    link = createLink(socket, deliver)
    onLinked?.()
  }
  const linkServer = linked ? createTcpServer(attach) : undefined
  wss.on('connection', (ws) => {
    /** @type {Set<string>} */
    const mine = new Set()
    ws.on('message', (data, isBinary) => {
      if (isBinary) return
      const text = data.toString()
      /** @type {{ id?: number, topic?: string, type?: string, method?: string, params?: { topic?: string } }} */
      let message
      try {
        message = JSON.parse(text)
      } catch {
        return
      }
      const type = message.type ?? message.method
      const topic = message.topic ?? message.params?.topic
      if (topic === undefined) return
      if (type === 'sub' || type === 'irn_subscribe') {
        let set = topics.get(topic)
        if (!set) {
          set = new Set()
          topics.set(topic, set)
        }
        set.add(ws)
        mine.add(topic)
        // Any string serves as the subscription id here; the SDK's own is a hash.
        if (answering && type === 'irn_subscribe')
          ws.send(`{"id":${message.id},"jsonrpc":"2.0","result":${JSON.stringify(topic)}}`)
      } else if (type === 'pub' || type === 'irn_publish') {
        const set = topics.get(topic)
        if (set?.size) {
          for (const peer of set) if (peer !== ws && peer.readyState === 1) peer.send(text)
        } else link?.send(topic, /** @type {Buffer} */ (data))
        if (answering && type === 'irn_publish') ws.send(`{"id":${message.id},"jsonrpc":"2.0","result":true}`)
      }
    })
    ws.on('close', () => {
      for (const topic of mine) topics.get(topic)?.delete(ws)
    })
  })
  /** @param {{ listen: (port: number, host: string, done: () => void) => unknown, address: () => unknown }} listener */
  const portOf = (listener) =>
    new Promise((resolve) =>
      listener.listen(0, '127.0.0.1', () =>
        resolve(/** @type {import('node:net').AddressInfo} */ (listener.address()).port),
      ),
    )
  return {
    listen: async () => ({
      port: /** @type {number} */ (await portOf(server)),
      ...(linkServer ? { linkPort: /** @type {number} */ (await portOf(linkServer)) } : {}),
    }),
    /** Dials the other relay's link port; resolves once connected. @param {number} port */
    link: (port) =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          attach(socket)
          resolve(undefined)
        })
      }),
    /** Resolves once a link is up (dialled or accepted). */
    linked: () => linkedOnce,
    close: () => {
      linkServer?.close()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

function createPairlink() {
  // `redis-wait`: the v2 store answers a publish once a replica holds the message (WAIT 1, docs/redis-ha.md);
  // `redis-nolinks`: every v1 frame between nodes through Redis.
  const onRedis = kind === 'redis' || kind === 'redis-wait' || kind === 'redis-nolinks'
  const backend = onRedis
    ? createRedisBackend({ url: redisUrl, keyPrefix, ...(kind === 'redis-nolinks' ? { links: false } : {}) })
    : createMemoryBackend()
  const waitForReplicas = kind === 'redis-wait' ? { replicas: 1, timeoutMs: 500 } : false
  // Limits meant for the public internet would throttle a load generator on one address, so they are off; in
  // `memory-limited`, whose load comes from an address per pair, the per-address budgets are on at their defaults.
  // The logger is silent by default. The v2 relay's request rates are off alike; its mailbox and other limits stay at
  // their defaults.
  const off = {
    maxMessagesPerSecond: 0,
    maxMessagesPerSecondPerIp: 0,
    maxConnectionsPerIp: 0,
    maxReadBytesPerSecondPerIp: 0,
    maxQueuedBytesPerIp: Number.MAX_SAFE_INTEGER,
    relay: {
      maxRequestsPerSecond: 0,
      maxRequestsPerSecondPerIp: 0,
      // With Redis, the v2 relay keeps its mailbox there too (as the CLI does with --redis).
      ...(onRedis
        ? {
            store: createRedisRelayStore({
              url: redisUrl,
              keyPrefix: `${keyPrefix}v2:`,
              waitForReplicas,
              // Over the v1 backend's node links, as the CLI and the server run it.
              links: backend.relayLinks,
            }),
          }
        : {}),
    },
  }
  const perAddress = {
    maxMessagesPerSecondPerIp: undefined,
    maxConnectionsPerIp: undefined,
    maxReadBytesPerSecondPerIp: undefined,
    maxQueuedBytesPerIp: undefined,
  }
  // `{"defaults": true}`: every limit at its default (the abuse bench), only the store chosen by the kind.
  const { defaults = false, ...given } = JSON.parse(options)
  const base = defaults ? { relay: off.relay.store ? { store: off.relay.store } : {} } : off
  const bridge = createBridgeServer({
    backend,
    ...base,
    ...(kind === 'memory-limited' ? perAddress : {}),
    ...given,
    relay: { ...base.relay, ...given.relay },
  })
  return {
    /** @returns {Promise<{ port: number, linkPort?: number }>} */
    listen: () => bridge.listen(0, '127.0.0.1'),
    close: () => bridge.close(),
  }
}

/**
 * Read and write system calls this process made so far (Linux's `/proc/self/io`; 0 elsewhere): what each hop costs the
 * kernel, beside the CPU time.
 */
const syscalls = () => {
  try {
    const io = readFileSync('/proc/self/io', 'utf8')
    return Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0) + Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** @param {unknown} message */
const send = (message) => process.send?.(message)

const relay = kind?.startsWith('minimal')
  ? createMinimalRelay({ answering: kind !== 'minimal-no-answer', linked: kind === 'minimal-linked' })
  : createPairlink()
const { port, linkPort } = await relay.listen()
// How long this process's event loop was held at a time (1 ms resolution): a stall every socket here waits out.
const loop = monitorEventLoopDelay({ resolution: 1 })
loop.enable()
send({ type: 'ready', port, linkPort })
process.on('message', async (/** @type {{ type: string, port?: number }} */ message) => {
  if (message.type === 'rss') {
    globalThis.gc?.()
    send({ type: 'rss', ...process.memoryUsage() })
  } else if (message.type === 'loop') {
    send({ type: 'loop', p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 })
    loop.reset()
  } else if (message.type === 'cpu') {
    send({ type: 'cpu', ...process.cpuUsage(), syscalls: syscalls() })
  } else if (message.type === 'link' && 'link' in relay) {
    // Dial the other relay's link port (`port`), or, without one, wait for it to dial this one.
    await (message.port === undefined ? relay.linked() : relay.link(message.port))
    send({ type: 'linked' })
  } else if (message.type === 'stop') {
    await relay.close()
    process.exit(0)
  }
})
