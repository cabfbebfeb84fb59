import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket as NetSocket } from 'node:net'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import { addressKey } from './addressKey.js'
import { CLOSE_GOING_AWAY, DEFAULT_HTTP_REQUEST_TIMEOUT_MS } from './constants.js'
import { type Bridge, type CreateBridgeParameters, createBridge } from './createBridge.js'
import { handleHttpRequest } from './http.js'
import { createKeyCounts } from './keyCounts.js'
import { listeningHosts } from './listening.js'
import { Peer, SlowReaderGuard } from './peer.js'
import { createRateLimiter } from './rateLimiter.js'
import { readBody } from './readBody.js'
import { createSweeper } from './sweeper.js'
import { type CreateRelayParameters, createRelay, type Relay } from './v2/createRelay.js'
import { registerRelayMetrics } from './v2/metrics.js'
import { createRelayUpgrade, type RelayUpgradeAttempt, type RelayUpgradeDecision } from './v2/upgrade.js'

/** Parameters of {@link attachBridge}. */
export type AttachBridgeParameters = {
  /**
   * Answer HTTP requests from a `request` listener of the bridge's own (404 for other paths). Set `false` when the
   * app has its own routes and calls `handleRequest` from its listener.
   * @default true
   */
  handleRequests?: boolean | undefined
  /** Path prefix of the HTTP endpoints, e.g. `/bridge` for `/bridge/hello`. @default '' */
  prefix?: string | undefined
  /**
   * Which upgrade requests are the bridge's. v1 clients use any path and query, so the default takes every one;
   * an app with WebSockets of its own narrows it and handles the others itself.
   * @default () => true
   */
  shouldUpgrade?: ((request: IncomingMessage) => boolean) | undefined
  /**
   * The WalletConnect v2 relay served on the same upgrade path: a request with an `auth` query parameter (the v2
   * SDK's JWT) goes to it, every other one to the v1 bridge. Without it every upgrade is v1.
   */
  relay?: Relay | undefined
  /**
   * Public URLs of this relay (`wss://relay.example.com`): a v2 token's `aud` must name one of them (host and port;
   * `ws://` or `wss://`). Behind a proxy, its public URL goes here. Never the request's `Host`, which names whatever
   * the client wants.
   * @default [] : the addresses the server listens on, as `ws://host:port` (`localhost` too on loopback, every
   * interface's address on `0.0.0.0` / `::`)
   */
  relayUrls?: readonly string[] | undefined
  /**
   * WalletConnect's audience rule: a v2 token's `aud` must equal one of `relayUrls` exactly (the `Host` header is not
   * enough) and its header must be `{"alg":"EdDSA","typ":"JWT"}`. Needs `relayUrls`. @default false
   */
  strictAudience?: boolean | undefined
  /** Called for every v2 upgrade the relay decides, opened or refused (never with the token). */
  onRelayUpgrade?: ((attempt: RelayUpgradeAttempt) => void) | undefined
  /**
   * The ping sweep's slice: every this many milliseconds a share of the sockets is pinged, so that all are pinged once
   * per `pingIntervalMs`. Equal to `pingIntervalMs`, every socket is pinged in one go (the old behaviour, for
   * benchmarks). @default 10
   */
  pingSliceMs?: number | undefined
}

/** Return type of {@link attachBridge}. */
export type AttachBridgeReturnType = {
  /** Serves a bridge endpoint; resolves `false` (and writes nothing) when the path is not one. */
  handleRequest(request: IncomingMessage, response: ServerResponse): Promise<boolean>
  /** Stops pinging, closes every socket with 1001 and detaches from the server (which stays open). */
  close(): Promise<void>
}

/**
 * Serves a bridge on an existing `http.Server`: WebSocket upgrades on any path, the HTTP endpoints, server pings,
 * per-address connection limits. The only place that touches `ws` and `node:http`.
 *
 * @example
 * const bridge = createBridge()
 * await bridge.start()
 * const attached = attachBridge(server, bridge, { handleRequests: false, prefix: '/bridge' })
 * server.on('request', async (req, res) => { if (!(await attached.handleRequest(req, res))) app(req, res) })
 */
export function attachBridge(
  server: Server,
  bridge: Bridge,
  parameters: AttachBridgeParameters = {},
): AttachBridgeReturnType {
  const { options, metrics, logger } = bridge
  const { counts } = metrics
  const prefix = parameters.prefix ?? ''
  const shouldUpgrade = parameters.shouldUpgrade
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes,
    perMessageDeflate: false,
  })
  const perAddress = createKeyCounts()
  const peers = new Set<Peer>()
  const guard = new SlowReaderGuard(options.maxBufferedBytes, options.maxBufferedBytesPerIp)
  // What each address sends is read at most at its rate: beyond, its sockets stop being read (TCP holds the sender
  // back) until it is within the rate again, so a flood is parsed at that pace and others are served between.
  const reads = createRateLimiter({
    perSecond: options.maxReadBytesPerSecondPerIp,
    burst: options.readBurstBytesPerIp,
  })
  let nextId = 0

  const addressOf = (request: IncomingMessage) => {
    const forwarded = options.trustProxy ? request.headers['x-forwarded-for'] : undefined
    // The last entry is the one our own proxy appended; earlier ones are whatever the client claimed.
    const last = typeof forwarded === 'string' ? forwarded.split(',').pop()?.trim() : undefined
    return last || request.socket.remoteAddress || 'unknown'
  }

  // Takes one of the address's slots for `socket` until it closes; `false` (and a 429) when none is left.
  const admit = (socket: Duplex, key: string) => {
    if (perAddress.get(key) >= options.maxConnectionsPerIp) {
      counts.connectionsRefused++
      socket.end(TOO_MANY)
      return false
    }
    perAddress.add(key)
    socket.once('close', () => perAddress.add(key, -1))
    return true
  }

  // Without a proxy, every TCP connection is counted from its first byte: one that never finishes its upgrade
  // request (half-open) holds a slot like a WebSocket does. Behind a proxy every connection is the proxy's, so the
  // count waits for X-Forwarded-For in the upgrade request.
  const counted = new WeakSet<Duplex>()
  const onConnection = (socket: NetSocket) => {
    if (options.trustProxy || options.maxConnectionsPerIp === 0) return
    socket.on('error', noop)
    if (!admit(socket, addressKey(socket.remoteAddress ?? 'unknown'))) return
    counted.add(socket)
    counts.connectionsPending++
    socket.once('close', () => {
      if (counted.delete(socket)) counts.connectionsPending--
    })
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (shouldUpgrade && !shouldUpgrade(request)) return
    socket.on('error', noop)
    const address = addressOf(request)
    const key = addressKey(address)
    if (counted.delete(socket)) counts.connectionsPending--
    else if (options.maxConnectionsPerIp > 0 && !admit(socket, key)) return
    const decision = relayDecision(request)
    if (decision && 'refused' in decision) {
      const { status, body } = decision.refused
      socket.end(
        `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
      return
    }
    if (decision && 'closed' in decision) {
      // WalletConnect's style: the upgrade succeeds, then the socket closes with 3000, which the SDK takes as final.
      const { code, reason } = decision.closed
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', noop)
        ws.close(code, reason)
      })
      return
    }
    const clientId = decision?.clientId
    wss.handleUpgrade(request, socket, head, (ws) => {
      const peer = new Peer(ws, String(++nextId), address, key, guard)
      peer.connection =
        clientId === undefined ? bridge.connect(peer) : (relay as Relay).connect(peer, clientId)
      peers.add(peer)
      ;(ws as PeerSocket)[PEER] = peer
      ws.on('message', onMessage)
      ws.on('pong', onPong)
      ws.on('error', onError)
      ws.on('close', onClose)
    })
  }

  // v2 (docs/relay-v2.md): an `auth` query parameter marks the SDK's upgrade; v1 never sends one. `undefined` for v1.
  const relay = parameters.relay
  const hosts = listeningHosts(() => server.address())
  const decide =
    relay &&
    createRelayUpgrade(relay, {
      relayUrls: parameters.relayUrls ?? [],
      listening: () => hosts().map((host) => `ws://${host}`),
      strictAudience: parameters.strictAudience ?? false,
      logger,
      onRelayUpgrade: parameters.onRelayUpgrade,
    })
  const relayDecision = (request: IncomingMessage): RelayUpgradeDecision | undefined => {
    if (!decide) return undefined
    const url = request.url ?? '/'
    const query = url.indexOf('?')
    if (query === -1) return undefined
    const search = new URLSearchParams(url.slice(query + 1))
    if (!search.has('auth')) return undefined
    return decide(request, search)
  }

  // Listeners shared by every socket (`this` is the socket), so an idle socket carries no closures of its own.
  function onMessage(this: WebSocket, data: RawData, isBinary: boolean) {
    const peer = (this as PeerSocket)[PEER]
    peer.alive = true
    const buffer = data as Buffer
    if (isBinary) peer.connection.receiveBinary(buffer.length)
    else peer.connection.receive(buffer.toString(), buffer.length)
    const wait = reads.spend(peer.addressKey, buffer.length)
    if (wait > 0 && !this.isPaused) {
      counts.readPauses++
      this.pause()
      setTimeout(resumeReading, wait, this).unref()
    }
  }
  function resumeReading(ws: WebSocket) {
    ws.resume()
  }
  function onPong(this: WebSocket) {
    ;(this as PeerSocket)[PEER].alive = true
  }
  function onError(this: WebSocket, error: Error & { code?: string }) {
    // ws closes with 1009 itself; the error only needs counting.
    if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') counts.invalidTooLarge++
    else logger.debug({ socket: (this as PeerSocket)[PEER].id, error: error.message }, 'socket error')
  }
  function onClose(this: WebSocket) {
    const peer = (this as PeerSocket)[PEER]
    peers.delete(peer)
    guard.forget(peer)
    peer.connection.close()
  }

  // reference §3.3: ping every interval; a socket that answered nothing since the last ping is terminated. The pings
  // go out a slice of the sockets at a time, spread over the interval, so no delivery waits for all of them.
  const pingIntervalMs = options.pingIntervalMs
  const pinger = createSweeper({
    intervalMs: pingIntervalMs,
    items: () => peers,
    sliceMs: parameters.pingSliceMs,
    visit(peer) {
      const now = performance.now()
      if (peer.alive) {
        peer.alive = false
        peer.pingedAt = now
        peer.ws.ping()
        // Sockets that left ahead of it in the order can bring a socket's turn forward: it gets half an interval.
      } else if (now - peer.pingedAt >= pingIntervalMs / 2) peer.ws.terminate()
    },
  })

  const handleRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/'
    const end = url.indexOf('?')
    let path = end === -1 ? url : url.slice(0, end)
    if (prefix) {
      if (!path.startsWith(prefix)) return false
      path = path.slice(prefix.length) || '/'
    }
    const result = await handleHttpRequest(
      bridge,
      {
        method: request.method ?? 'GET',
        path,
        remoteAddress: addressOf(request),
        body: () => readBody(request),
      },
      relay,
    ).catch((error: unknown) => {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'http handler failed')
      return { status: 500, headers: {}, body: '' }
    })
    if (!result) return false
    response.writeHead(result.status, result.headers)
    response.end(result.body)
    return true
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    handleRequest(request, response).then((handled) => {
      if (handled) return
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Not Found')
    })
  }

  server.on('connection', onConnection)
  server.on('upgrade', onUpgrade)
  if (parameters.handleRequests ?? true) server.on('request', onRequest)

  return {
    handleRequest,
    async close() {
      pinger.stop()
      server.off('connection', onConnection)
      server.off('upgrade', onUpgrade)
      server.off('request', onRequest)
      const closed = [...peers].map(
        (peer) =>
          new Promise<void>((resolve) => {
            peer.ws.once('close', () => resolve())
            peer.ws.close(CLOSE_GOING_AWAY, 'Server shutting down')
            // A peer that does not finish the closing handshake must not hold the shutdown up.
            setTimeout(() => {
              peer.ws.terminate()
              resolve()
            }, 1_000).unref()
          }),
      )
      await Promise.all(closed)
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}

/** Parameters of {@link createBridgeServer}: the bridge's options plus how to serve them. */
export type CreateBridgeServerParameters = CreateBridgeParameters &
  Omit<AttachBridgeParameters, 'handleRequests' | 'relay'> & {
    /** Options of the v2 relay served beside v1 on the same port, or `false` for v1 only. @default {} */
    relay?: CreateRelayParameters | false | undefined
    /**
     * Time a request has to arrive whole, headers and body (a `/subscribe` body is at most 16 KiB): a client trickling
     * it holds its connection slot no longer. @default DEFAULT_HTTP_REQUEST_TIMEOUT_MS (10 s)
     */
    requestTimeoutMs?: number | undefined
  }

/** Return type of {@link createBridgeServer}. */
export type CreateBridgeServerReturnType = {
  bridge: Bridge
  /** The v2 relay (absent with `relay: false`). */
  relay: Relay | undefined
  server: Server
  /** Starts the backend and the relay's store, then listens; resolves with the bound address (port 0 picks a free one). */
  listen(port: number, host?: string): Promise<{ port: number; host: string; url: string }>
  /** Graceful stop: stops accepting, closes sockets with 1001, then closes the backend (Redis keeps its queues). */
  close(): Promise<void>
}

/**
 * Creates a stand-alone bridge server on its own `http.Server` (what the CLI runs).
 *
 * @example
 * const { listen, close } = createBridgeServer({ ttlSeconds: 3600 })
 * const { url } = await listen(5001, '127.0.0.1')
 */
export function createBridgeServer(
  parameters: CreateBridgeServerParameters = {},
): CreateBridgeServerReturnType {
  const bridge = createBridge(parameters)
  // A request must arrive whole within 10 s, headers and body: a connection trickling either holds its slot no longer.
  // Node checks every `connectionsCheckingInterval` (30 s by default), so as often as the timeout is short.
  const requestTimeout = parameters.requestTimeoutMs ?? DEFAULT_HTTP_REQUEST_TIMEOUT_MS
  const server = createServer({
    requestTimeout,
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: Math.min(requestTimeout, 1_000),
  })
  // The per-address budget of kept bytes means the same for v1 queues and v2 mailboxes: one option sets both.
  const relay =
    parameters.relay === false
      ? undefined
      : createRelay({
          logger: parameters.logger,
          maxQueuedBytesPerIp: parameters.maxQueuedBytesPerIp,
          ...parameters.relay,
        })
  if (relay) registerRelayMetrics(bridge.metrics.registry, relay)
  const attached = attachBridge(server, bridge, { ...parameters, relay })
  return {
    bridge,
    relay,
    server,
    async listen(port, host = '127.0.0.1') {
      await Promise.all([bridge.start(), relay?.start()])
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve()
        })
      })
      const address = server.address()
      const bound = typeof address === 'object' && address ? address.port : port
      const urlHost = host.includes(':') ? `[${host}]` : host
      return { port: bound, host, url: `http://${urlHost}:${bound}` }
    },
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      await attached.close()
      server.closeAllConnections()
      await stopped
      await Promise.all([relay?.close(), bridge.close()])
    },
  }
}

const PEER = Symbol('pairlink.peer')
type PeerSocket = WebSocket & { [PEER]: Peer }
const noop = () => {}
const TOO_MANY = 'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
