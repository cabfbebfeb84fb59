#!/usr/bin/env node
// Starts the whole product on one port: web app, reference wallet, registry, bridge, API and (without RPC_URL)
// the anvil dev chain. Configuration comes from the environment; see the README.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BackendError, createBridge, createRelay, isSentinelUrl } from '@pairlink/bridge'
import { processLogDestination } from '@pairlink/bridge/internal'
import { BaseError } from '@pairlink/protocol'
import { WALLETCONNECT_DASHBOARD_URL } from '@pairlink/protocol/v2'
import type { Anvil } from '@pairlink/smart-account/anvil'
import { type Logger, pino } from 'pino'
import { createApi } from './api/createApi.js'
import { purgeExpired } from './api/sessions.js'
import { type Config, ConfigError, loadConfig, redactUrl } from './config.js'
import { createAppServer } from './createAppServer.js'
import { createBridgeBackend } from './createBridgeBackend.js'
import { createDatabase, DatabaseInUseError } from './db/createDatabase.js'
import { createChainReader } from './payments/chainReader.js'
import { createPaymentFollower } from './payments/createPaymentFollower.js'
import { describeRelayProbe, probeRelay, shortProjectId } from './probeRelay.js'
import { readyChecks } from './readyChecks.js'
import { redactUrls } from './redactUrls.js'
import { createWalletList, readWalletsFile, WalletsFileError } from './registry.js'
import { resolveLayout } from './resolveLayout.js'
import { splitCredentials } from './rpcProxy.js'

// Synchronous, and silent once the log reader is gone: a shutdown must not wait on a dead stdout.
const logTo = processLogDestination()
/** Replaced by one at the configured level once the configuration is read. */
let logger: Logger = pino({ name: 'pairlink-server' }, logTo)
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The dev chain (anvil + the smart-account factory), only when RPC_URL is unset: loaded then, never in production. */
let anvil: Anvil | undefined
/** The built apps and the default data folder: inside the installed package, or the repository's. */
const layout = resolveLayout(here('..'))
/** What to stop on exit, newest first; each part is added as soon as it runs. */
const cleanups: (() => Promise<void>)[] = []
let stopping = false

/** Graceful shutdown, also during start-up: a Ctrl-C while anvil starts still stops anvil. */
async function stop() {
  if (stopping) return
  stopping = true
  // Armed first: neither a log line nor a part that hangs may hold the exit up.
  setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref()
  logger.info('shutting down')
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

async function main() {
  // The environment is read here, once; everything below uses the validated configuration.
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error))
  }
  const { port, host, redisUrl, databaseUrl, trustProxy } = config
  logger = pino({ name: 'pairlink-server', level: config.logLevel }, logTo)

  let rpcUrl = config.rpcUrl
  if (!rpcUrl) {
    // With the smart-account factory at its fixed address (@pairlink/smart-account): the reference wallet's smart
    // accounts, deployed or counterfactual, sign in against this chain without being told where it is.
    const devChain = await import('@pairlink/smart-account/anvil')
    try {
      devChain.resolveAnvilBinary()
    } catch {
      // An installed server has no dev chain unless asked for: production sets RPC_URL.
      fail(
        "RPC_URL is unset and the dev chain is not installed: set RPC_URL to your chain's JSON-RPC node, or install the dev chain beside the server (`npm install @foundry-rs/anvil`; with npx: `npx -p @pairlink/server -p @foundry-rs/anvil pairlink-server`)",
      )
    }
    anvil = await devChain.startAnvil()
    cleanups.push(() => anvil?.stop() ?? Promise.resolve())
    rpcUrl = anvil.url
  }
  const node = rpcUrl
  const chainId = await fetchChainId(node).catch(() =>
    fail(`The RPC node at ${redactUrl(node)} is unreachable: start it or fix RPC_URL`),
  )

  const backend = await createBridgeBackend(config)
  // Behind a trusted proxy the bridge's per-address limits count clients, not the proxy.
  // Process metrics (memory, CPU, event-loop lag) too, as pairlink-bridge exports them: /metrics is the server's.
  const bridge = createBridge({
    backend,
    logger: logger.child({ part: 'bridge' }),
    trustProxy,
    processMetrics: true,
  })
  cleanups.push(() => bridge.close())
  await bridge.start().catch((error: unknown) => {
    // The links listen once Redis answered: a taken port or an address not of this machine is theirs to fix.
    if (config.links && error instanceof BackendError && error.message === 'Cannot start the node links') {
      const { host = '127.0.0.1', port: linkPort = 0 } = config.links
      const cause = error.cause as NodeJS.ErrnoException | undefined
      fail(
        `Cannot listen for bridge node links on ${host}:${linkPort} (${cause?.code ?? cause?.message}): fix BRIDGE_LINK_LISTEN, or set it to off`,
      )
    }
    fail(redisUnreachable(redisUrl))
  })
  // The Redis client is loaded only when it is used: a small server starts without it.
  const redis = redisUrl ? await import('@pairlink/bridge/redis') : undefined

  // The WalletConnect v2 relay beside the v1 bridge, on the same port; with REDIS_URL its mailboxes and fan-out live
  // in Redis too (keys of their own beside v1's), so several servers behind one address serve v2 as they serve v1.
  const relay = createRelay({
    ...config.relayLimits,
    logger: logger.child({ part: 'relay' }),
    projectIds: config.relayProjectIds,
    allowedOrigins: config.relayAllowedOrigins,
    // Refused as WalletConnect's relay refuses (accepted, then closed with 3000 and the reason): a browser cannot read
    // an HTTP refusal of an upgrade, but it reads a close code, so the page can say what to fix and stop retrying.
    refusal: 'close',
    ...(redis && redisUrl
      ? {
          // Over the v1 backend's node links, as v1 frames go (docs/node-links.md).
          store: redis.createRedisRelayStore({
            url: redisUrl,
            waitForReplicas: config.redisWaitForReplicas,
            writeDelayMs: config.redisWriteDelayMs,
            links: backend.relayLinks,
          }),
        }
      : {}),
  })
  cleanups.push(() => relay.close())
  await relay.start().catch(() => fail(redisUnreachable(redisUrl)))

  const dataDir = config.dataDir ?? layout.dataDir
  const db = await createDatabase({ url: databaseUrl, dataDir }).catch((error: unknown) =>
    fail(
      error instanceof DatabaseInUseError
        ? error.message
        : databaseUrl
          ? `PostgreSQL at ${redactUrl(databaseUrl)} is unreachable or refused the migrations: start it or fix DATABASE_URL`
          : `The embedded database in ${dataDir} cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check that DATA_DIR is a folder this user may write, or set DATABASE_URL`,
    ),
  )

  cleanups.push(() => db.close())
  // Expired nonces and sessions are deleted at start-up and then every PURGE_INTERVAL_MS.
  const purge = () =>
    purgeExpired(db).catch((error: Error) => logger.warn({ err: error.message }, 'purge of expired sign-ins'))
  void purge()
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS)
  purgeTimer.unref()
  cleanups.push(async () => clearInterval(purgeTimer))
  // One reader of the node for recording and following payments (it sends RPC_URL's credentials as a header).
  const chain = createChainReader({ url: rpcUrl })
  const follower = createPaymentFollower({
    db,
    chain,
    chainId,
    pollingInterval: anvil ? 1000 : undefined,
    // viem's messages name the URL: the node's credentials and key are taken out before logging.
    onError: (error) => logger.warn({ err: redactUrls(error.message) }, 'payment follower'),
  })
  follower.start()
  cleanups.push(() => follower.stop())

  let extraWallets: ReturnType<typeof readWalletsFile> = []
  try {
    extraWallets = config.walletsFile ? readWalletsFile(config.walletsFile) : []
  } catch (error) {
    fail(error instanceof WalletsFileError ? error.message : String(error))
  }
  const { walletConnect } = config
  const registry = createWalletList({
    snapshotFile: here('../data/wallets.json'),
    logosDir: here('../data/logos'),
    extraWallets,
    // The explorer is read only with a project id; its last good list is kept beside the embedded database.
    explorer: walletConnect && {
      explorerUrl: walletConnect.explorerUrl,
      projectId: walletConnect.projectId,
      sdkVersion: SERVER_VERSION,
    },
    cacheDir: walletConnect ? `${dataDir}/wallet-list` : undefined,
    onError: (message) => logger.warn({ part: 'registry' }, message),
  })
  void registry.refreshIfDue()

  const app = createAppServer({
    bridge,
    relay,
    rpcUrl,
    chainId,
    bridgeUrl: config.bridgeUrl,
    relayProjectId: config.relayProjectIds?.[0],
    walletConnect: config.walletConnect,
    registry,
    webDir: layout.webDir,
    walletDir: layout.walletDir,
    publicUrl: config.publicUrl,
    trustProxy,
    api: (site) => createApi({ db, chainId, site, trustProxy, chain }),
    logger: logger.child({ part: 'http' }),
    ready: readyChecks({ db, redis: redisUrl ? [bridge, relay] : undefined, rpcUrl }),
  })
  await new Promise<void>((resolve) => {
    app.server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') fail(`Port ${port} on ${host} is taken: stop what uses it or set PORT`)
      fail(`Cannot listen on ${host}:${port}: ${error.message}`)
    })
    app.server.listen(port, host, resolve)
  })
  cleanups.push(() => app.close())
  const origin = app.site.primary()

  const ownRelay = origin.replace(/^http/, 'ws')
  const relayStore = redisUrl ? 'Redis' : 'one node, memory'
  const relayLines = walletConnect
    ? `relay     ${walletConnect.relayUrl} (WalletConnect's network, project ${shortProjectId(walletConnect.projectId)})
              this server's own relay still serves SDKs given its URL: ${ownRelay} (${relayStore})`
    : `relay     ${ownRelay} (this server; ${relayStore})
              phone wallets need a WalletConnect project id: get one at ${WALLETCONNECT_DASHBOARD_URL}, set WALLETCONNECT_PROJECT_ID`
  console.log(`
  Pairlink is running
    web app   ${origin}/
    wallet    ${origin}/wallet
    ${relayLines}
    bridge    ${config.bridgeUrl ?? origin} (${redisUrl ? 'Redis' : 'memory'} backend)
    registry  ${origin}/registry/wallets.json
    database  ${databaseUrl ? `PostgreSQL at ${redactUrl(databaseUrl)}` : `embedded (SQLite) in ${dataDir}`}
    chain     ${anvil ? `anvil dev chain, id ${chainId}, at ${rpcUrl}` : `RPC node, chain id ${chainId}`}
`)

  // One look at the relay the apps are handed, after start-up and never blocking it: a refusal names its fix once.
  if (walletConnect) {
    const target = { relayUrl: walletConnect.relayUrl, projectId: walletConnect.projectId, origin }
    void probeRelay(target).then((result) => {
      const { level, message } = describeRelayProbe(result, target)
      logger.child({ part: 'relay-probe' })[level](message)
    })
  }
}

async function fetchChainId(rpcUrl: string): Promise<number> {
  // fetch refuses credentials in a URL: they travel as `Authorization`, as `/rpc` sends them.
  const { url, headers } = splitCredentials(rpcUrl)
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(5000),
  })
  const body = (await response.json()) as { result?: string }
  if (typeof body.result !== 'string') throw new Error('no chain id')
  return Number.parseInt(body.result, 16)
}

/** This server's version, reported to WalletConnect's explorer as `sv`. */
const SERVER_VERSION = (JSON.parse(readFileSync(here('../package.json'), 'utf8')) as { version: string })
  .version

/** Longest a graceful shutdown may take before the process exits anyway (a peer, Redis or anvil that hangs). */
const SHUTDOWN_TIMEOUT_MS = 10_000

/** How often expired nonces and sessions are deleted. */
const PURGE_INTERVAL_MS = 10 * 60_000

/** What to say when Redis does not answer at start-up: the setting to fix, the one Sentinel or a plain URL came from. */
function redisUnreachable(redisUrl: string | undefined): string {
  const sentinel = redisUrl !== undefined && isSentinelUrl(redisUrl)
  return sentinel
    ? `Redis through the sentinels at ${redactUrl(redisUrl ?? '')} is unreachable: start them or fix REDIS_SENTINELS / REDIS_SENTINEL_MASTER (or REDIS_URL)`
    : `Redis at ${redactUrl(redisUrl ?? '')} is unreachable: start it or fix REDIS_URL`
}

/** Prints a startup error in plain words, stops the dev chain we started, and exits. */
function fail(message: string): never {
  console.error(`pairlink: ${message}`)
  anvil?.kill()
  process.exit(1)
}

main().catch((error: unknown) => {
  const details = error instanceof BaseError && error.details ? ` (${error.details})` : ''
  fail(`${error instanceof Error ? error.message : String(error)}${details}`)
})
