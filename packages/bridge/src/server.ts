import { createServer, type Server } from 'node:http'
import { type AttachBridgeParameters, attachBridge } from './attachBridge.js'
import { DEFAULT_HTTP_REQUEST_TIMEOUT_MS } from './constants.js'
import { type Bridge, type CreateBridgeParameters, createBridge } from './createBridge.js'
import { type CreateRelayParameters, createRelay, type Relay } from './v2/createRelay.js'
import { registerRelayMetrics } from './v2/metrics.js'

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
