import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the fake node does with one call. */
export type FakeAnswer =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { status: number; body: string }
  | 'hang'

/** One call the fake node received. */
export type FakeCall = {
  id: unknown
  method: string
  params: unknown
  headers: IncomingHttpHeaders
  raw: string
}

/**
 * A JSON-RPC node on 127.0.0.1 (port 0) whose every answer the test decides: results, JSON-RPC errors, raw HTTP
 * statuses and bodies, or no answer at all (`'hang'`, for time-outs). Records each call.
 */
export async function createFakeNode(handle: (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>) {
  const calls: FakeCall[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: { id?: unknown; method?: string; params?: unknown } = {}
      try {
        body = JSON.parse(raw)
      } catch {}
      const call = { id: body.id, method: body.method ?? '', params: body.params, headers: req.headers, raw }
      calls.push(call)
      const answer = await handle(call)
      if (answer === 'hang') return
      if ('status' in answer) {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body)
        return
      }
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...answer }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A block as a node returns it for number `n` (hashes derived from the number, so tests can check order). */
export function fakeBlock(n: number) {
  const hash = (k: number) => `0x${k.toString(16).padStart(64, '0')}`
  return {
    number: `0x${n.toString(16)}`,
    hash: hash(n + 1),
    parentHash: hash(n),
    timestamp: `0x${(1_700_000_000 + n).toString(16)}`,
    transactions: [],
  }
}

/**
 * A fake chain whose head the test moves: `eth_getBlockByNumber` answers `latest` with the head block and a
 * number with that block (or `null` past the head); `eth_blockNumber` with the head number.
 */
export function createFakeChain(head = 0) {
  const chain = {
    head,
    answer(call: FakeCall): FakeAnswer {
      if (call.method === 'eth_blockNumber') return { result: `0x${chain.head.toString(16)}` }
      if (call.method === 'eth_chainId') return { result: '0x7a69' }
      if (call.method !== 'eth_getBlockByNumber')
        return { error: { code: -32601, message: 'Method not found' } }
      const tag = (call.params as [string])[0]
      if (tag === 'latest') return { result: fakeBlock(chain.head) }
      const n = Number(tag)
      return { result: n <= chain.head ? fakeBlock(n) : null }
    },
  }
  return chain
}
