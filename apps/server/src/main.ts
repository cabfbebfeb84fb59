#!/usr/bin/env node
// Starts the whole product on one port: web app, reference wallet, registry, bridge, API and (without RPC_URL)
// the anvil dev chain. Configuration comes from the environment; see the README.
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend } from '@pairlink/bridge'
import { createRedisBackend } from '@pairlink/bridge/redis'
import { BaseError } from '@pairlink/protocol'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { pino } from 'pino'
import { createApi } from './api/createApi.js'
import { createAppServer } from './createAppServer.js'
import { createDatabase } from './db/createDatabase.js'
import { createChainReader } from './payments/chainReader.js'
import { createPaymentFollower } from './payments/createPaymentFollower.js'
import { createRegistry } from './registry.js'

const logger = pino({ name: 'pairlink-server', level: process.env.LOG_LEVEL ?? 'info' })
const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '127.0.0.1'
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

let anvil: Anvil | undefined
/** What to stop on exit, newest first; each part is added as soon as it runs. */
const cleanups: (() => Promise<void>)[] = []
let stopping = false

/** Graceful shutdown, also during start-up: a Ctrl-C while anvil starts still stops anvil. */
async function stop() {
  if (stopping) return
  stopping = true
  logger.info('shutting down')
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

async function main() {
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT must be a port number, got ${process.env.PORT}`)

  let rpcUrl = process.env.RPC_URL
  if (!rpcUrl) {
    anvil = await startAnvil()
    cleanups.push(() => anvil?.stop() ?? Promise.resolve())
    rpcUrl = anvil.url
  }
  const node = rpcUrl
  const chainId = await fetchChainId(node).catch(() =>
    fail(`The RPC node at ${redact(node)} is unreachable: start it or fix RPC_URL`),
  )

  const redisUrl = process.env.REDIS_URL
  const backend = redisUrl ? createRedisBackend({ url: redisUrl }) : createMemoryBackend()
  const bridge = createBridge({ backend, logger: logger.child({ part: 'bridge' }) })
  cleanups.push(() => bridge.close())
  await bridge
    .start()
    .catch(() => fail(`Redis at ${redact(redisUrl ?? '')} is unreachable: start it or fix REDIS_URL`))

  const databaseUrl = process.env.DATABASE_URL
  const dataDir = process.env.DATA_DIR ?? here('../../../.pairlink/db')
  const db = await createDatabase({ url: databaseUrl, dataDir }).catch(() =>
    fail(
      databaseUrl
        ? `PostgreSQL at ${redact(databaseUrl)} is unreachable or refused the migrations: start it or fix DATABASE_URL`
        : `The embedded database in ${dataDir} cannot be opened: is another Pairlink server using it?`,
    ),
  )

  cleanups.push(() => db.close())
  const follower = createPaymentFollower({
    db,
    rpcUrl,
    chainId,
    pollingInterval: anvil ? 1000 : undefined,
    onError: (error) => logger.warn({ err: error.message }, 'payment follower'),
  })
  follower.start()
  cleanups.push(() => follower.stop())

  const trustProxy = process.env.TRUST_PROXY === '1'
  const app = createAppServer({
    bridge,
    rpcUrl,
    chainId,
    bridgeUrl: process.env.BRIDGE_URL,
    registry: (origin) => createRegistry(here('../data/wallets.json'), origin),
    webDir: here('../../web/dist'),
    walletDir: here('../../wallet/dist'),
    trustProxy,
    api: createApi({ db, chainId, trustProxy, chain: createChainReader({ url: rpcUrl }) }),
  })
  await new Promise<void>((resolve) => {
    app.server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') fail(`Port ${port} on ${host} is taken: stop what uses it or set PORT`)
      fail(`Cannot listen on ${host}:${port}: ${error.message}`)
    })
    app.server.listen(port, host, resolve)
  })
  cleanups.push(() => app.close())
  const address = app.server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`

  console.log(`
  Pairlink is running
    web app   ${origin}/
    wallet    ${origin}/wallet
    bridge    ${process.env.BRIDGE_URL ?? origin} (${redisUrl ? 'Redis' : 'memory'} backend)
    registry  ${origin}/registry/wallets.json
    database  ${databaseUrl ? `PostgreSQL at ${redact(databaseUrl)}` : `embedded (PGlite) in ${dataDir}`}
    chain     ${anvil ? `anvil dev chain, id ${chainId}, at ${rpcUrl}` : `RPC node, chain id ${chainId}`}
`)
}

async function fetchChainId(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(5000),
  })
  const body = (await response.json()) as { result?: string }
  if (typeof body.result !== 'string') throw new Error('no chain id')
  return Number.parseInt(body.result, 16)
}

/** A URL without its credentials, fit for a message. */
function redact(url: string): string {
  try {
    const u = new URL(url)
    u.username = ''
    u.password = ''
    return u.toString()
  } catch {
    return '(invalid URL)'
  }
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
