import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend } from '@pairlink/bridge'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureLog, type LogLine } from '../test/logLines.js'
import { createApi } from './api/createApi.js'
import type { AppEnv } from './api/http.js'
import { createAppServer } from './createAppServer.js'
import { createDatabase, type Database } from './db/createDatabase.js'
import { createChainReader } from './payments/chainReader.js'
import { createWalletList } from './registry.js'
import { REQUEST_ID_PATTERN } from './requestLog.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const registry = createWalletList({
  snapshotFile: fileURLToPath(new URL('../data/wallets.json', import.meta.url)),
  logosDir: fileURLToPath(new URL('../data/logos', import.meta.url)),
})
const dir = mkdtempSync(join(tmpdir(), 'pairlink-request-log-'))
let db: Database
const servers: { close(): Promise<void> }[] = []

/** A server as main.ts builds it, on the embedded database, with a route that throws and its lines captured. */
async function start(trustProxy: boolean) {
  const log = captureLog()
  const bridge = createBridge({ backend: createMemoryBackend() })
  await bridge.start()
  const app = createAppServer({
    bridge,
    // Never asked here: no test calls /rpc or reads the chain.
    rpcUrl: 'http://127.0.0.1:9',
    chainId: 31337,
    registry,
    webDir: join(dir, 'web'),
    walletDir: join(dir, 'wallet'),
    trustProxy,
    logger: log.logger,
    ready: { database: async () => void (await db.query('SELECT 1')) },
    api: (site) => {
      const api = new Hono<AppEnv>()
      api.get('/api/boom', () => {
        throw new Error('cannot reach postgres://pairlink:hunter2@db.internal:5432/pairlink')
      })
      api.route(
        '/',
        createApi({ db, chainId: 31337, site, chain: createChainReader({ url: 'http://127.0.0.1:9' }) }),
      )
      return api
    },
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => app.close().then(() => bridge.close()) })
  const address = app.server.address()
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  /** Requests `path`; resolves with the answer, its request id and its one log line. */
  const request = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${origin}${path}`, init)
    const body = await response.text()
    const id = response.headers.get('x-request-id') ?? ''
    const line = await log.next((line) => line.requestId === id)
    return { response, body, id, line }
  }
  /** The lines of request `id`, once a later request's line shows every line of `id` was written. */
  const linesOf = async (id: string) => {
    await request('/api/config')
    return log.lines.filter((line) => line.requestId === id)
  }
  return { origin, log, request, linesOf }
}

let direct: Awaited<ReturnType<typeof start>>
let proxied: Awaited<ReturnType<typeof start>>
beforeAll(async () => {
  mkdirSync(join(dir, 'web'), { recursive: true })
  mkdirSync(join(dir, 'wallet'), { recursive: true })
  writeFileSync(join(dir, 'web', 'index.html'), '<title>web</title>')
  writeFileSync(join(dir, 'wallet', 'index.html'), '<title>wallet</title>')
  db = await createDatabase()
  direct = await start(false)
  proxied = await start(true)
})

afterAll(async () => {
  for (const server of servers) await server.close()
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('request id', () => {
  test('default: every answer carries an id of its own (the web app, the API, the bridge, /health, 404, 405)', async () => {
    const ids = new Set<string>()
    const requests: [string, RequestInit?][] = [
      ['/'],
      ['/account'],
      ['/api/config'],
      ['/api/nope'],
      ['/info'],
      ['/metrics'],
      ['/health'],
      ['/ready'],
      ['/', { method: 'DELETE' }],
    ]
    for (const [path, init] of requests) {
      const { id } = await direct.request(path, init)
      expect(id, path).toMatch(UUID)
      ids.add(id)
    }
    expect(ids.size).toBe(requests.length)
  })

  test('args: without a trusted proxy an incoming x-request-id is ignored, as is X-Forwarded-For', async () => {
    const { id, line } = await direct.request('/api/config', {
      headers: { 'x-request-id': 'proxy-id-0123456789', 'x-forwarded-for': '203.0.113.7' },
    })
    expect(id).toMatch(UUID)
    expect(line.client).toBe('127.0.0.1')
  })

  test('args: behind a trusted proxy its x-request-id is kept when it matches the pattern, replaced otherwise', async () => {
    for (const offered of [
      '0123456789abcdef',
      'req_2024-01-01T00:00:00.000Z',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    ]) {
      const { id, line } = await proxied.request('/api/config', {
        headers: { 'x-request-id': offered, 'x-forwarded-for': '198.51.100.1, 203.0.113.7' },
      })
      expect(id).toBe(offered)
      // The last hop: the one the trusted proxy appended.
      expect(line.client).toBe('203.0.113.7')
    }
    for (const offered of [
      'short',
      'has spaces in it',
      '"quoted-id-1234"',
      'a'.repeat(129),
      'id;rm -rf /;x',
      '{"json":1}',
    ]) {
      expect(REQUEST_ID_PATTERN.test(offered), offered).toBe(false)
      const { id } = await proxied.request('/api/config', { headers: { 'x-request-id': offered } })
      expect(id, offered).toMatch(UUID)
    }
  })
})

describe('access log', () => {
  test('default: one info line per request: method, path without query values, status, ms, request id, client', async () => {
    const secret = 'd6f3a0c8e1b24a7f9c0e5b3a2d1f4e6c'
    const uri = `wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655909b@1?bridge=https%3A%2F%2Fb.example&key=${secret}`
    const { id, line, response } = await direct.request(
      `/wallet/wc?uri=${encodeURIComponent(uri)}&foo=1&foo=2`,
    )
    expect(response.status).toBe(200)
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      msg: 'request',
      requestId: id,
      method: 'GET',
      path: '/wallet/wc',
      query: ['uri', 'foo'],
      status: 200,
      ms: expect.any(Number),
      client: '127.0.0.1',
    })
    expect(JSON.stringify(direct.log.lines)).not.toContain(secret)
    expect(await direct.linesOf(id)).toHaveLength(1)
  })

  test('behavior: 4xx answers are info lines too, and a long path is cut', async () => {
    const { line } = await direct.request('/api/nope')
    expect(line).toMatchObject({ level: 30, status: 404, path: '/api/nope' })
    const { line: long } = await direct.request(`/${'x'.repeat(1000)}`)
    expect((long.path as string).length).toBeLessThanOrEqual(260)
  })
})

describe('5xx', () => {
  test('error: a route that throws answers 500 and writes exactly one line, at error, with the id and the cause', async () => {
    const { response, body, id, line } = await direct.request('/api/boom')
    expect(response.status).toBe(500)
    expect(JSON.parse(body)).toEqual({ error: 'Internal error' })
    expect(line).toMatchObject({
      level: 50,
      msg: 'request failed',
      requestId: id,
      status: 500,
      path: '/api/boom',
    })
    const err = line.error as { type: string; message: string; stack: string }
    expect(err.type).toBe('Error')
    expect(err.message).toBe('cannot reach postgres://db.internal:5432/…')
    expect(err.stack).toContain('requestLog.test.ts')
    expect(JSON.stringify(line)).not.toContain('hunter2')
    expect(await direct.linesOf(id)).toHaveLength(1)
    expect(JSON.stringify(direct.log.lines)).not.toContain('hunter2')
  })

  test('error: an API statement that fails is a 500 with one error line naming the SQL error', async () => {
    await db.query('ALTER TABLE nonces RENAME TO nonces_away')
    try {
      const { response, id, line } = await direct.request('/api/nonce')
      expect(response.status).toBe(500)
      expect(line).toMatchObject({ level: 50, requestId: id, status: 500 })
      expect((line.error as { message: string }).message).toMatch(/no such table: nonces/)
      const lines = await direct.linesOf(id)
      expect(lines.map((l: LogLine) => l.level)).toEqual([50])
    } finally {
      await db.query('ALTER TABLE nonces_away RENAME TO nonces')
    }
  })
})

describe('metrics', () => {
  test('default: /metrics serves the API metrics beside the bridge’s, labelled by route pattern', async () => {
    await direct.request('/api/config')
    await direct.request('/account/settings')
    await direct.request('/wallet/wc?uri=x')
    const text = await (await fetch(`${direct.origin}/metrics`)).text()
    expect(text).toContain('pairlink_bridge_connections ')
    expect(text).toMatch(
      /^pairlink_server_http_requests_total\{route="\/api\/config",method="GET",status="200"\} \d+$/m,
    )
    expect(text).toMatch(
      /^pairlink_server_http_requests_total\{route="\/\*",method="GET",status="200"\} \d+$/m,
    )
    expect(text).toMatch(
      /^pairlink_server_http_requests_total\{route="\/wallet\/\*",method="GET",status="200"\} \d+$/m,
    )
    expect(text).toMatch(
      /^pairlink_server_http_requests_total\{route="\/info",method="GET",status="200"\} \d+$/m,
    )
    expect(text).toMatch(
      /^pairlink_server_http_requests_total\{route="\/api\/boom",method="GET",status="500"\} \d+$/m,
    )
    expect(text).toMatch(
      /^pairlink_server_http_request_duration_seconds_bucket\{le="0.1",route="\/api\/config",method="GET"\} \d+$/m,
    )
    expect(text).toMatch(/^pairlink_server_ready\{dependency="database"\} 1$/m)
    expect(text).toMatch(/^pairlink_server_ready_check_seconds\{dependency="database"\} [\d.e-]+$/m)
    // Raw paths never become labels.
    expect(text).not.toContain('/account/settings')
  })
})
