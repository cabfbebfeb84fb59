import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBridge, createRelay } from '@pairlink/bridge'
import { createRedisBackend, createRedisRelayStore } from '@pairlink/bridge/redis'
import { waitFor } from '@pairlink/test-kit'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureLog } from '../test/logLines.js'
import { createApi } from './api/createApi.js'
import { createAppServer } from './createAppServer.js'
import { createDatabase, type Database } from './db/createDatabase.js'
import { createChainReader } from './payments/chainReader.js'
import type { ReadyReport } from './ready.js'
import { readyChecks } from './readyChecks.js'
import { createWalletList } from './registry.js'

// Each dependency is really stopped and started again on its port, so the URLs given in the environment (which
// this test must not stop) skip the suite.
const external = Boolean(process.env.DATABASE_URL || process.env.REDIS_URL)
/** The promise of the issue: /ready says 503 within 5 s of a dependency stopping. */
const UNREADY_WITHIN_MS = 5_000

let postgres: TestPostgres
let redis: TestRedis
let anvil: Anvil
let db: Database
let origin: string
let close: () => Promise<void>
const log = captureLog()
const dir = mkdtempSync(join(tmpdir(), 'pairlink-ready-'))

beforeAll(async () => {
  if (external) return
  ;[postgres, redis, anvil] = await Promise.all([startPostgres(), startRedis(), startAnvil()])
  db = await createDatabase({ url: postgres.url })
  // The server's parts as main.ts makes them with REDIS_URL and DATABASE_URL.
  const bridge = createBridge({ backend: createRedisBackend({ url: redis.url, keyPrefix: redis.keyPrefix }) })
  await bridge.start()
  const relay = createRelay({
    store: createRedisRelayStore({ url: redis.url, keyPrefix: `${redis.keyPrefix}v2:` }),
  })
  await relay.start()
  const chain = createChainReader({ url: anvil.url })
  const app = createAppServer({
    bridge,
    relay,
    rpcUrl: anvil.url,
    chainId: anvil.chainId,
    registry: createWalletList({
      snapshotFile: fileURLToPath(new URL('../data/wallets.json', import.meta.url)),
      logosDir: fileURLToPath(new URL('../data/logos', import.meta.url)),
    }),
    webDir: dir,
    walletDir: dir,
    logger: log.logger,
    api: (site) => createApi({ db, chainId: anvil.chainId, site, chain }),
    ready: readyChecks({ db, redis: [bridge, relay], rpcUrl: anvil.url }),
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  const address = app.server.address()
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  close = async () => {
    await app.close()
    await relay.close()
    await bridge.close()
  }
}, 120_000)

afterAll(async () => {
  await close?.()
  await db?.close()
  await Promise.all([postgres?.stop(), redis?.stop(), anvil?.stop()])
  rmSync(dir, { recursive: true, force: true })
})

async function ready(): Promise<{ status: number; report: ReadyReport }> {
  const response = await fetch(`${origin}/ready`)
  return { status: response.status, report: (await response.json()) as ReadyReport }
}

/**
 * Stops `dependency`, waits for /ready to say 503 naming it (and only it), starts it again and waits for 200.
 * Prints one JSON line with the two times measured.
 */
async function outage(
  dependency: string,
  stop: () => Promise<void>,
  start: () => Promise<void>,
  during?: () => Promise<void>,
) {
  expect((await ready()).status).toBe(200)
  await stop()
  const stopped = performance.now()
  const unready = await waitFor(
    async () => {
      const answer = await ready()
      return answer.status === 503 && answer.report
    },
    { timeout: UNREADY_WITHIN_MS, interval: 50, message: `/ready 503 after ${dependency} stopped` },
  )
  const unreadyMs = Math.round(performance.now() - stopped)
  expect(unready.status).toBe('unready')
  for (const [name, result] of Object.entries(unready.checks))
    expect(result.ok, name).toBe(name !== dependency)
  expect(unready.checks[dependency]?.error).toEqual(expect.any(String))
  // Alive all along: an orchestrator must not restart the process for a dependency's outage.
  expect((await fetch(`${origin}/health`)).status).toBe(204)
  const metrics = await (await fetch(`${origin}/metrics`)).text()
  expect(metrics).toMatch(new RegExp(`^pairlink_server_ready\\{dependency="${dependency}"\\} 0$`, 'm'))
  await log.next((line) => line.msg === 'dependency unready' && line.dependency === dependency)
  await during?.()

  await start()
  const started = performance.now()
  await waitFor(async () => (await ready()).status === 200, {
    timeout: 20_000,
    interval: 50,
    message: `/ready 200 after ${dependency} came back`,
  })
  const readyMs = Math.round(performance.now() - started)
  await log.next((line) => line.msg === 'dependency ready again' && line.dependency === dependency)
  console.log(JSON.stringify({ dependency, unreadyMs, readyMs }))
  return { unreadyMs, readyMs }
}

describe.skipIf(external)('/ready with real PostgreSQL, Redis and anvil', () => {
  test('default: 200 naming each dependency; /health 204; the readiness gauge at 1', async () => {
    const { status, report } = await ready()
    expect(status).toBe(200)
    expect(report).toEqual({
      status: 'ready',
      checks: {
        database: { ok: true, ms: expect.any(Number) },
        redis: { ok: true, ms: expect.any(Number) },
        chain: { ok: true, ms: expect.any(Number) },
      },
    })
    expect((await fetch(`${origin}/health`)).status).toBe(204)
    const metrics = await (await fetch(`${origin}/metrics`)).text()
    for (const dependency of ['database', 'redis', 'chain'])
      expect(metrics).toMatch(new RegExp(`^pairlink_server_ready\\{dependency="${dependency}"\\} 1$`, 'm'))
  })

  test('behavior: PostgreSQL stopped — /ready 503 within 5 s; the API answers 503 ERR_DATABASE_UNAVAILABLE, logged once', async () => {
    await outage(
      'database',
      () => postgres.down(),
      () => postgres.up(),
      async () => {
        const response = await fetch(`${origin}/api/nonce`)
        expect(response.status).toBe(503)
        expect(response.headers.get('retry-after')).toBe('5')
        expect(await response.json()).toEqual({
          error: 'The database is unavailable: try again shortly',
          code: 'ERR_DATABASE_UNAVAILABLE',
        })
        const id = response.headers.get('x-request-id')
        const line = await log.next((line) => line.requestId === id)
        expect(line).toMatchObject({ level: 50, msg: 'request failed', status: 503, path: '/api/nonce' })
        expect(line.error).toMatchObject({
          type: 'DatabaseUnavailableError',
          code: 'ERR_DATABASE_UNAVAILABLE',
          message: 'PostgreSQL cannot be reached',
          cause: { code: 'ECONNREFUSED' },
        })
        // One line for it: the next request's line is written after any other of its own would have been.
        const after = await fetch(`${origin}/health`)
        await log.next((l) => l.requestId === after.headers.get('x-request-id'))
        expect(log.lines.filter((l) => l.requestId === id)).toHaveLength(1)
      },
    )
    // Back: the pool opens new connections to the restarted server.
    expect((await fetch(`${origin}/api/nonce`)).status).toBe(200)
  })

  test('behavior: Redis stopped — /ready 503 within 5 s naming redis, 200 once it is back', async () => {
    await outage(
      'redis',
      () => redis.stop(),
      () => redis.restart(),
    )
  })

  test('behavior: the chain node stopped — /ready 503 within 5 s naming chain, 200 once it is back', async () => {
    const port = anvil.port
    await outage(
      'chain',
      () => anvil.stop(),
      async () => {
        anvil = await startAnvil({ port })
      },
    )
  })
})
