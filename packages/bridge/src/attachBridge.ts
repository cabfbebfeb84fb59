import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import { createConnectionAdmission } from './connectionAdmission.js'
import { CLOSE_GOING_AWAY } from './constants.js'
import type { Bridge } from './createBridge.js'
import { handleHttpRequest } from './http.js'
import { listeningHosts } from './listening.js'
import { Peer, SlowReaderGuard } from './peer.js'
import { createRateLimiter } from './rateLimiter.js'
import { readBody } from './readBody.js'
import { createSweeper } from './sweeper.js'
import type { Relay } from './v2/createRelay.js'
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
 * per-address connection limits. With `server.ts` (its own `http.Server`), the only code that touches `ws` and `node:http`.
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
  const peers = new Set<Peer>()
  const guard = new SlowReaderGuard(options.maxBufferedBytes, options.maxBufferedBytesPerIp)
  // What each address sends is read at most at its rate: beyond, its sockets stop being read (TCP holds the sender
  // back) until it is within the rate again, so a flood is parsed at that pace and others are served between.
  const reads = createRateLimiter({
    perSecond: options.maxReadBytesPerSecondPerIp,
    burst: options.readBurstBytesPerIp,
  })
  let nextId = 0

  const admission = createConnectionAdmission(options, counts)
  const { addressOf, onConnection } = admission

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (shouldUpgrade && !shouldUpgrade(request)) return
    socket.on('error', noop)
    const admitted = admission.upgrade(request, socket)
    if (!admitted) return
    const { address, key } = admitted
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

const PEER = Symbol('pairlink.peer')
type PeerSocket = WebSocket & { [PEER]: Peer }
const noop = () => {}
