import { createServer, type Server } from 'node:http'
import { freePort } from '@pairlink/test-kit'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from './db/createDatabase.js'
import { createReadiness } from './ready.js'
import { readyChecks } from './readyChecks.js'

let anvil: Anvil
let db: Database
/** A JSON-RPC endpoint that answers 401 unless it gets the credentials of its URL, as a keyed provider does. */
let guarded: Server
let guardedUrl: string

beforeAll(async () => {
  ;[anvil, db] = await Promise.all([startAnvil(), createDatabase()])
  guarded = createServer((request, response) => {
    const expected = `Basic ${Buffer.from('user:pass').toString('base64')}`
    if (request.headers.authorization !== expected) return void response.writeHead(401).end('unauthorized')
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x10' }))
  })
  await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve))
  const address = guarded.address()
  guardedUrl = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})

afterAll(async () => {
  await new Promise((resolve) => guarded?.close(resolve))
  await db?.close()
  await anvil?.stop()
})

const run = (checks: ReturnType<typeof readyChecks>) => createReadiness({ checks }).check()

describe('readyChecks', () => {
  test('default: database and chain; no redis check without Redis', async () => {
    const report = await run(readyChecks({ db, rpcUrl: anvil.url }))
    expect(Object.keys(report.checks)).toEqual(['database', 'chain'])
    expect(report.status).toBe('ready')
  })

  test('args: redis — every part must be healthy', async () => {
    const up = { isHealthy: async () => true }
    const down = { isHealthy: async () => false }
    const failing = {
      isHealthy: async (): Promise<boolean> => {
        throw new Error('boom')
      },
    }
    expect((await run(readyChecks({ db, rpcUrl: anvil.url, redis: [up, up] }))).checks.redis?.ok).toBe(true)
    for (const parts of [[up, down], [failing]])
      expect((await run(readyChecks({ db, rpcUrl: anvil.url, redis: parts }))).checks.redis).toEqual({
        ok: false,
        ms: expect.any(Number),
        error: 'not connected, or no answer to PING',
      })
  })

  test('args: the node URL’s credentials travel as Authorization, and are never in the reason', async () => {
    const ok = await run(readyChecks({ db, rpcUrl: `http://user:pass@${guardedUrl}/v3/KEY` }))
    expect(ok.checks.chain?.ok).toBe(true)
    const refused = await run(readyChecks({ db, rpcUrl: `http://user:wrong@${guardedUrl}/v3/KEY` }))
    expect(refused.checks.chain).toEqual({ ok: false, ms: expect.any(Number), error: 'HTTP 401' })
  })

  test('error: a node that is not there is ECONNREFUSED', async () => {
    const report = await run(readyChecks({ db, rpcUrl: `http://127.0.0.1:${await freePort()}` }))
    expect(report.checks.chain).toEqual({ ok: false, ms: expect.any(Number), error: 'ECONNREFUSED' })
  })
})
