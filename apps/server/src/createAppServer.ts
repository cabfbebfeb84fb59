import { createServer, type Server } from 'node:http'
import { getRequestListener } from '@hono/node-server'
import { attachBridge, type Bridge, type Relay, registerRelayMetrics } from '@pairlink/bridge'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { routePath } from 'hono/route'
import { secureHeaders } from 'hono/secure-headers'
import { type Logger, pino } from 'pino'
import { type AppEnv, NO_STORE, siteOf } from './api/http.js'
import type { Budget } from './api/rateLimit.js'
import { contentSecurityPolicy } from './contentSecurityPolicy.js'
import { createHttpMetrics } from './httpMetrics.js'
import { createReadiness, type ReadyCheck } from './ready.js'
import { serveWalletList } from './registry/serveWalletList.js'
import type { WalletList } from './registry.js'
import { createRequestLog, recordCause, recordRoute } from './requestLog.js'
import { createRpcProxy } from './rpcProxy.js'
import { serveApp } from './serveStatic.js'
import { createSite, type Site } from './site.js'

/** Parameters of {@link createAppServer}. */
export type CreateAppServerParameters = {
  /** The bridge served on this port (WebSocket upgrades on any path, plus /hello /info /subscribe /metrics; /health is ours). */
  bridge: Bridge
  /**
   * The WalletConnect v2 relay served on the bridge's port (upgrades with an `auth` token; docs/relay-v2.md). A token's
   * `aud` must name this site: `PUBLIC_URL` as `ws(s)://`, or without it one of the site's hosts (the listening
   * address) as `ws://` or `wss://`, never the request's `Host`. @default none
   */
  relay?: Relay | undefined
  /** The Ethereum JSON-RPC node the apps read through `/rpc`; credentials in it are sent as `Authorization`. */
  rpcUrl: string
  chainId: number
  /**
   * The v2 project id the apps send the relay (`RELAY_PROJECT_IDS`' first) when it serves only some. @default none
   */
  relayProjectId?: string | undefined
  /**
   * WalletConnect's network (`WALLETCONNECT_PROJECT_ID`, `WALLETCONNECT_RELAY_URL`): `/api/config` hands the apps
   * its relay and project id instead of this server's relay, which keeps serving the SDKs and wallets given its
   * URL; the pages' `connect-src` admits that relay. @default none: the apps pair through this server
   */
  walletConnect?: { projectId: string; relayUrl: string } | undefined
  /** Bridge URL the apps put in their `wc:` URIs; `undefined` means this server. */
  bridgeUrl?: string | undefined
  /** The wallet list served at `/registry/wallets.json`, its logos at `/registry/logos/<name>` (`createWalletList`). */
  registry: WalletList
  webDir: string
  walletDir: string
  /**
   * The site's identity (`PUBLIC_URL`); `undefined` means the address the server listens on. The URLs handed out,
   * the sign-in domain and the CSRF origin all come from it, never from the request's `Host`.
   */
  publicUrl?: URL | undefined
  /**
   * The app's API under `/api`, given the site (see `createApi`); routes it does not own fall through.
   * @default no API: `/api/…` other than `/api/config` is a 404
   */
  api?: ((site: Site) => Hono<AppEnv>) | undefined
  /** A trusted proxy in front says the scheme (`X-Forwarded-Proto`) and the client address (`X-Forwarded-For`); never a host. @default false */
  trustProxy?: boolean | undefined
  /** Largest JSON-RPC body the `/rpc` proxy reads. @default 1 MiB */
  maxRpcBodyBytes?: number | undefined
  /**
   * Time a request has to arrive whole, headers and body: a client trickling its body holds a connection and its
   * buffers no longer (Node's own default is 5 minutes). @default DEFAULT_APP_REQUEST_TIMEOUT_MS (15 s)
   */
  requestTimeoutMs?: number | undefined
  /**
   * Where each request's line goes: `info` for an answer below 500, `error` with its cause for a 5xx (requestLog.ts).
   * @default a silent logger
   */
  logger?: Logger | undefined
  /**
   * The dependencies `GET /ready` checks, by name (`readyChecks`: database, redis, chain), each within 2 s; also
   * exported as `pairlink_server_ready{dependency}`. @default none: `/ready` answers 200 with no checks
   */
  ready?: Record<string, ReadyCheck> | undefined
  /** Limits of the `/rpc` proxy per client address. @default { maxBatch: 20, rate: { burst: 100, perSecond: 20 }, maxConcurrent: 4 } */
  rpcLimits?: { maxBatch?: number; rate?: Budget; maxConcurrent?: number; maxLogBlocks?: number } | undefined
}

/** How long a request may take to arrive, headers and body (the largest is a 1 MiB `/rpc` body): 15 s. */
const DEFAULT_APP_REQUEST_TIMEOUT_MS = 15_000

/** Return type of {@link createAppServer}. */
export type CreateAppServerReturnType = {
  server: Server
  /** The site's identity, once the server listens (the printed URLs). */
  site: Site
  /** Stops the bridge's sockets, then the HTTP server. */
  close(): Promise<void>
}

/**
 * The product's one port: the web app at `/`, the reference wallet at `/wallet`, the wallet registry, the bridge,
 * the `/rpc` proxy to the JSON-RPC node and the app's API under `/api`. HTTP routes are a hono app on a Node server;
 * the bridge keeps the server's `upgrade` event and its own HTTP endpoints.
 * @example
 * const app = createAppServer({ bridge, rpcUrl, chainId, registry, webDir, walletDir, publicUrl })
 * app.server.listen(8080)
 */
export function createAppServer(parameters: CreateAppServerParameters): CreateAppServerReturnType {
  const { bridge, rpcUrl, chainId, registry, webDir, walletDir, trustProxy = false } = parameters
  const maxRpcBodyBytes = parameters.maxRpcBodyBytes ?? 1 << 20
  const requestTimeout = parameters.requestTimeoutMs ?? DEFAULT_APP_REQUEST_TIMEOUT_MS
  // Node checks these timeouts every `connectionsCheckingInterval` (30 s by default): as often as they are short.
  const server = createServer({
    requestTimeout,
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: Math.min(requestTimeout, 1_000),
  })
  const site = createSite({
    publicUrl: parameters.publicUrl,
    trustProxy,
    listening: () => server.address(),
  })
  const { relay } = parameters
  if (relay) registerRelayMetrics(bridge.metrics.registry, relay)
  // A v2 token's `aud` is the relay URL the app was given (`/api/config`): this site's origin in its WebSocket scheme.
  // With PUBLIC_URL that one; without it the bridge takes the addresses the server listens on, the same list as the
  // site's hosts (`listeningHosts`), as `ws://` (a `wss://` of one of them too, for a TLS proxy on the same port).
  const relayUrls = parameters.publicUrl ? [parameters.publicUrl.origin.replace(/^http/, 'ws')] : undefined
  const attached = attachBridge(server, bridge, { handleRequests: false, relay, relayUrls })

  const logger = parameters.logger ?? pino({ level: 'silent' })
  const readiness = createReadiness({
    checks: parameters.ready ?? {},
    onChange(dependency, { ok, error }) {
      if (ok) logger.info({ dependency }, 'dependency ready again')
      else logger.warn({ dependency, error }, 'dependency unready')
    },
  })
  const metrics = createHttpMetrics({ registry: bridge.metrics.registry, readiness })
  const beginRequest = createRequestLog({ logger, trustProxy, onEnd: metrics.observe })

  const app = new Hono<AppEnv>()
  // The pattern of the route that answered (its handler ran last), a bounded label for metrics.
  app.use(async (c, next) => {
    await next()
    recordRoute(c.env?.incoming, routePath(c))
  })
  app.onError((error, c) => {
    recordCause(c.env?.incoming, error)
    return c.json({ error: 'Internal error' }, 500, NO_STORE)
  })
  app.use(
    secureHeaders({
      // The registry is read by dapps on other sites (CORS below); every other answer is this site's own.
      crossOriginResourcePolicy: false,
      // The wallet page is opened from dapps; a strict opener policy would cut that link for nothing here.
      crossOriginOpenerPolicy: false,
      // No page of this site is meant to be framed (the CSP's frame-ancestors says so to newer browsers).
      xFrameOptions: 'DENY',
    }),
  )
  const { walletConnect } = parameters
  // After the route: one that set a policy of its own (an icon's, stricter) keeps it.
  app.use(async (c, next) => {
    await next()
    if (c.res.headers.has('content-security-policy')) return
    const policy = contentSecurityPolicy({
      origin: siteOf(c, site).origin,
      walletConnectRelayUrl: walletConnect?.relayUrl,
      bridgeUrl: parameters.bridgeUrl,
    })
    c.res.headers.set('content-security-policy', policy)
  })

  // Liveness: the process answers; nothing else is asked, so a restart is never triggered by a dependency's outage.
  app.get('/health', (c) => c.body(null, 204, NO_STORE))
  // Readiness: every dependency answered within its time (ready.ts); an orchestrator routes traffic only when 200.
  app.get('/ready', async (c) => {
    const report = await readiness.check()
    if (report.status === 'ready') return c.json(report, 200, NO_STORE)
    const failing = Object.keys(report.checks).filter((name) => !report.checks[name]?.ok)
    recordCause(c.env?.incoming, new Error(`unready: ${failing.join(', ')}`))
    return c.json(report, 503, NO_STORE)
  })

  // Public, read-only data that dapps on other sites load too (the modal fetches the registry cross-origin).
  serveWalletList(app, registry, (c) => siteOf(c, site).origin)
  app.get('/api/config', (c) => {
    const { origin } = siteOf(c, site)
    // With a project id the apps pair where phone wallets listen; else through this site's relay, in its WebSocket
    // scheme: the `aud` its tokens must name (see `relayUrls`).
    const relayed = walletConnect
      ? {
          relayUrl: walletConnect.relayUrl,
          projectId: walletConnect.projectId,
          relayNetwork: 'walletconnect',
        }
      : relay
        ? {
            relayUrl: origin.replace(/^http/, 'ws'),
            ...(parameters.relayProjectId ? { projectId: parameters.relayProjectId } : {}),
            relayNetwork: 'pairlink',
          }
        : {}
    return c.json(
      {
        bridge: parameters.bridgeUrl ?? origin,
        rpcUrl: `${origin}/rpc`,
        chainId,
        registryUrl: `${origin}/registry/wallets.json`,
        ...relayed,
      },
      200,
      { 'access-control-allow-origin': '*', ...NO_STORE },
    )
  })
  app.post(
    '/rpc',
    bodyLimit({
      maxSize: maxRpcBodyBytes,
      onError: (c) => c.json({ error: 'JSON-RPC request too large' }, 413, NO_STORE),
    }),
    createRpcProxy({ rpcUrl, site, trustProxy, ...parameters.rpcLimits }),
  )
  app.all('/rpc', (c) => c.json({ error: 'POST a JSON-RPC request' }, 405, NO_STORE))
  if (parameters.api) app.route('/', parameters.api(site))
  app.all('/api/*', (c) => c.json({ error: `No API route ${c.req.path}` }, 404, NO_STORE))
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      return c.json({ error: 'Method not allowed' }, 405, NO_STORE)
    return next()
  })
  const notBuilt = 'is not built yet: run `npm run build`.'
  app.use('/wallet', serveApp(walletDir, '/wallet'))
  app.use('/wallet/*', serveApp(walletDir, '/wallet'))
  const missing = (what: string, dir: string) => (c: Context<AppEnv>) => {
    recordCause(c.env?.incoming, new Error(`${what} is not built (no index.html in ${dir})`))
    return c.text(`${what} ${notBuilt}`, 503)
  }
  app.all('/wallet', missing('The reference wallet', walletDir))
  app.all('/wallet/*', missing('The reference wallet', walletDir))
  app.use('*', serveApp(webDir, ''))
  app.all('*', missing('The web app', webDir))

  const listener = getRequestListener(app.fetch)
  server.on('request', async (request, response) => {
    beginRequest(request, response)
    const path = request.url?.split('?', 1)[0] ?? '/'
    // /health and /ready are the product's (above), not the bridge's, whose /health asks Redis.
    if (path !== '/health' && path !== '/ready') {
      try {
        if (await attached.handleRequest(request, response)) {
          // Handled: the path is one of the bridge's few endpoints, so it is a bounded label.
          recordRoute(request, path)
          // The bridge keeps the error to itself and logs it (part "bridge"): this line says where to look.
          if (response.statusCode >= 500)
            recordCause(request, new Error(`the bridge's ${path} failed (see the bridge's log)`))
          return
        }
      } catch (error) {
        recordCause(request, error)
        if (!response.headersSent) response.writeHead(500).end()
        return
      }
    }
    await listener(request, response)
  })

  return {
    server,
    site,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await attached.close()
      server.closeAllConnections()
      await closed
    },
  }
}
