import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { attachBridge, type Bridge } from '@pairlink/bridge'
import { HTTP_TIMEOUT_MS } from '@pairlink/provider'
import { originOf, sendJson } from './api/http.js'
import type { Registry } from './registry.js'
import { serveStatic } from './serveStatic.js'

/** Parameters of {@link createAppServer}. */
export type CreateAppServerParameters = {
  /** The bridge served on this port (WebSocket upgrades on any path, plus /hello /info /health /subscribe /metrics). */
  bridge: Bridge
  /** The Ethereum JSON-RPC node the apps read through `/rpc`. */
  rpcUrl: string
  chainId: number
  /** Bridge URL the apps put in their `wc:` URIs; `undefined` means this server. */
  bridgeUrl?: string | undefined
  /** The registry document served at `/registry/wallets.json`, given this server's origin. */
  registry: (origin: string) => Registry
  webDir: string
  walletDir: string
  /** The app's API under `/api`; resolves `false` for paths it does not own. */
  api?: ((request: IncomingMessage, response: ServerResponse) => Promise<boolean>) | undefined
  /** Read `X-Forwarded-Proto` from a trusted proxy in front, so URLs handed out are https. @default false */
  trustProxy?: boolean | undefined
  /** Largest JSON-RPC body the `/rpc` proxy forwards. @default 1 MiB */
  maxRpcBodyBytes?: number | undefined
}

/** Return type of {@link createAppServer}. */
export type CreateAppServerReturnType = {
  server: Server
  /** Stops the bridge's sockets, then the HTTP server. */
  close(): Promise<void>
}

/**
 * The product's one port: the web app at `/`, the reference wallet at `/wallet`, the wallet registry, the bridge,
 * the `/rpc` proxy to the JSON-RPC node and the app's API under `/api`.
 */
export function createAppServer(parameters: CreateAppServerParameters): CreateAppServerReturnType {
  const {
    bridge,
    rpcUrl,
    chainId,
    registry,
    webDir,
    walletDir,
    maxRpcBodyBytes = 1 << 20,
    trustProxy = false,
  } = parameters
  const server = createServer()
  const attached = attachBridge(server, bridge, { handleRequests: false })

  server.on('request', async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const path = url.pathname
      if (await attached.handleRequest(request, response)) return
      // Public, read-only data that dapps on other sites load too (the modal fetches the registry cross-origin).
      if (path === '/registry/wallets.json')
        return sendJson(response, 200, registry(originOf(request, trustProxy)), PUBLIC)
      if (path === '/api/config') {
        const origin = originOf(request, trustProxy)
        return sendJson(
          response,
          200,
          {
            bridge: parameters.bridgeUrl ?? origin,
            rpcUrl: `${origin}/rpc`,
            chainId,
            registryUrl: `${origin}/registry/wallets.json`,
          },
          PUBLIC,
        )
      }
      if (path === '/rpc') return await proxyRpc(request, response, rpcUrl, maxRpcBodyBytes)
      if (parameters.api && (await parameters.api(request, response))) return
      if (path.startsWith('/api/')) return sendJson(response, 404, { error: `No API route ${path}` })
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return sendJson(response, 405, { error: 'Method not allowed' })
      if (path === '/wallet' || path.startsWith('/wallet/')) {
        if (await serveStatic(request, response, walletDir, path.slice('/wallet'.length))) return
        return sendText(response, 503, 'The reference wallet is not built yet: run `npm run build`.')
      }
      if (await serveStatic(request, response, webDir, path)) return
      sendText(response, 503, 'The web app is not built yet: run `npm run build`.')
    } catch {
      if (!response.headersSent) sendJson(response, 500, { error: 'Internal error' })
      else response.destroy()
    }
  })

  return {
    server,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await attached.close()
      server.closeAllConnections()
      await closed
    },
  }
}

/** Forwards one JSON-RPC POST to the node, so browsers (and phones on the network) reach it through this port. */
async function proxyRpc(
  request: IncomingMessage,
  response: ServerResponse,
  rpcUrl: string,
  maxBytes: number,
) {
  if (request.method !== 'POST') return sendJson(response, 405, { error: 'POST a JSON-RPC request' })
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) return sendJson(response, 413, { error: 'JSON-RPC request too large' })
    chunks.push(chunk)
  }
  try {
    const upstream = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
      // The provider's own time-out: a read through `/rpc` must not give up before the provider would.
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    })
    const body = Buffer.from(await upstream.arrayBuffer())
    response.writeHead(upstream.status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    response.end(body)
  } catch {
    sendJson(response, 502, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'RPC node unreachable' },
    })
  }
}

/** Headers of public, cookie-free resources any origin may read. */
const PUBLIC = { 'access-control-allow-origin': '*' }

function sendText(response: ServerResponse, status: number, text: string) {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
  response.end(text)
}
