import { HTTP_TIMEOUT_MS } from '@pairlink/provider'
import type { Context, Handler } from 'hono'
import { type AppEnv, clientAddress, siteOf } from './api/http.js'
import { type Budget, createRateLimit } from './api/rateLimit.js'
import { recordCause } from './requestLog.js'
import { RPC_METHODS } from './rpcMethods.js'
import type { Site } from './site.js'

/** Parameters of {@link createRpcProxy}. */
export type CreateRpcProxyParameters = {
  /** The node; credentials in it (`https://user:pass@host/…`) are sent as `Authorization: Basic` and never shown. */
  rpcUrl: string
  /** The site: a browser page of another origin is refused. */
  site: Site
  /** Read the client's address from `X-Forwarded-For` behind a trusted proxy. @default false */
  trustProxy?: boolean | undefined
  /** Calls in one batch at most. @default 20 */
  maxBatch?: number | undefined
  /** Calls per client address (a batch costs one per call). @default { burst: 100, perSecond: 20 } */
  rate?: Budget | undefined
  /** Requests of one address in flight at once. @default 4 */
  maxConcurrent?: number | undefined
  /** Blocks one `eth_getLogs` may span. @default 1000 */
  maxLogBlocks?: number | undefined
}

type Call = { jsonrpc: '2.0'; id: string | number | null; method: string; params?: unknown }
type Answer = { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: unknown }

/**
 * The `/rpc` handler: a JSON-RPC proxy that forwards only what a browser dapp needs. Only `application/json` POSTs
 * from this site (or from no browser at all) are read; each call is checked against an allow-list and re-serialised
 * with only `jsonrpc`, `id`, `method` and `params` (v1's `skipCache` and the like never reach the node); other methods
 * are answered -32601 here; batches, call rate and concurrency per address are bounded. Body size is left to the
 * route's body limit.
 * @example
 * app.post('/rpc', bodyLimit({ maxSize: 1 << 20 }), createRpcProxy({ rpcUrl, site }))
 */
export function createRpcProxy(parameters: CreateRpcProxyParameters): Handler<AppEnv> {
  const { site, trustProxy = false, maxBatch = 20, maxConcurrent = 4, maxLogBlocks = 1000 } = parameters
  const { url: node, headers: auth } = splitCredentials(parameters.rpcUrl)
  const limit = createRateLimit(parameters.rate ?? { burst: 100, perSecond: 20 })
  const inFlight = new Map<string, number>()

  const upstream = async (body: unknown): Promise<unknown> => {
    const response = await fetch(node, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
      // The provider's own time-out: a read through `/rpc` must not give up before the provider would.
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    })
    // Some nodes answer JSON-RPC errors with a 4xx; anything else without a JSON body is the node's failure.
    return await response.json()
  }

  /** Whether an `eth_getLogs` filter spans at most `maxLogBlocks` blocks (a block hash is one block). */
  const logsBounded = async (params: unknown): Promise<boolean> => {
    const filter = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
    if (!filter || typeof filter !== 'object') return false
    if (typeof filter.blockHash === 'string') return true
    const tip = ['latest', 'pending', 'safe', 'finalized', undefined]
    const from = filter.fromBlock
    const to = filter.toBlock
    if (tip.includes(from as string) && tip.includes(to as string)) return true
    if (typeof from !== 'string' || !/^0x[0-9a-f]+$/i.test(from)) return false
    let end: bigint
    if (typeof to === 'string' && /^0x[0-9a-f]+$/i.test(to)) end = BigInt(to)
    else if (tip.includes(to as string)) {
      const answer = (await upstream({
        jsonrpc: '2.0',
        id: 0,
        method: 'eth_blockNumber',
        params: [],
      })) as Answer
      if (typeof answer.result !== 'string') return false
      end = BigInt(answer.result)
    } else return false
    return end - BigInt(from) < BigInt(maxLogBlocks)
  }

  return async (c: Context<AppEnv>) => {
    const from = c.req.header('origin')
    if (from !== undefined && from !== siteOf(c, site).origin)
      return rpcError(c, 403, null, -32600, 'Cross-origin requests to /rpc are refused')
    // Only JSON: a cross-site `text/plain` post (a "simple" request, sent without a preflight) is refused unread.
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
      return rpcError(c, 415, null, -32600, 'Send JSON-RPC as Content-Type: application/json')
    let parsed: unknown
    try {
      parsed = JSON.parse(await c.req.text())
    } catch {
      return rpcError(c, 400, null, -32700, 'Parse error: the body is not JSON')
    }
    const batch = Array.isArray(parsed)
    const items = batch ? (parsed as unknown[]) : [parsed]
    if (items.length === 0) return rpcError(c, 400, null, -32600, 'Empty batch')
    if (items.length > maxBatch)
      return rpcError(c, 413, null, -32600, `Batch of ${items.length} calls; at most ${maxBatch}`)

    const address = clientAddress(c, trustProxy)
    for (let i = 0; i < items.length; i++) {
      const wait = limit.take(address)
      if (wait > 0) {
        c.header('retry-after', String(wait))
        return rpcError(c, 429, null, -32005, 'Too many requests to /rpc: wait and try again')
      }
    }
    const open = inFlight.get(address) ?? 0
    if (open >= maxConcurrent) {
      c.header('retry-after', '1')
      return rpcError(c, 429, null, -32005, 'Too many concurrent requests to /rpc')
    }
    inFlight.set(address, open + 1)
    try {
      const answers: (Answer | undefined)[] = []
      const forward: { index: number; call: Call }[] = []
      for (const [index, item] of items.entries()) {
        const call = toCall(item)
        if ('error' in call) answers[index] = call.error
        else if (!RPC_METHODS.has(call.method))
          answers[index] = failure(call.id, -32601, `Method ${call.method} is not available through /rpc`)
        else if (call.method === 'eth_getLogs') {
          // The tip of an open range is read from the node: an unreachable node is its error, not the caller's.
          const bounded = await logsBounded(call.params).catch(() => undefined)
          if (bounded === undefined) answers[index] = failure(call.id, -32603, 'RPC node unreachable')
          else if (!bounded)
            answers[index] = failure(
              call.id,
              -32602,
              `eth_getLogs must name a block hash or a range of at most ${maxLogBlocks} blocks`,
            )
          else forward.push({ index, call })
        } else forward.push({ index, call })
      }
      if (forward.length > 0) {
        // Our own ids upstream (the position), the caller's put back: answers match whatever ids the caller chose.
        const sent = forward.map(({ call }, n) => ({
          jsonrpc: '2.0',
          id: n,
          method: call.method,
          params: call.params ?? [],
        }))
        let received: unknown
        try {
          received = await upstream(batch ? sent : sent[0])
        } catch (error) {
          recordCause(c.env?.incoming, error)
          return rpcError(c, 502, batch ? null : forward[0]!.call.id, -32603, 'RPC node unreachable')
        }
        const list = Array.isArray(received) ? received : [received]
        for (const answer of list as Answer[]) {
          const n = typeof answer?.id === 'number' ? answer.id : batch ? -1 : 0
          const target = forward[n]
          if (!target) continue
          answers[target.index] = {
            jsonrpc: '2.0',
            id: target.call.id,
            ...('error' in answer ? { error: answer.error } : { result: answer.result }),
          }
        }
        for (const { index, call } of forward)
          answers[index] ??= failure(call.id, -32603, 'The RPC node gave no answer to this call')
      }
      c.header('cache-control', 'no-store')
      return c.json(batch ? answers : answers[0])
    } finally {
      const left = (inFlight.get(address) ?? 1) - 1
      if (left <= 0) inFlight.delete(address)
      else inFlight.set(address, left)
    }
  }
}

/** One JSON-RPC call, validated: only the four standard fields survive. */
function toCall(item: unknown): Call | { error: Answer } {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return { error: failure(null, -32600, 'Invalid request: not a JSON-RPC object') }
  const { id = null, method, params } = item as Record<string, unknown>
  const validId = id === null || typeof id === 'string' || typeof id === 'number'
  if (!validId) return { error: failure(null, -32600, 'Invalid request: bad id') }
  if (typeof method !== 'string' || method.length > 64)
    return { error: failure(id, -32600, 'Invalid request: no method') }
  if (params !== undefined && (typeof params !== 'object' || params === null))
    return { error: failure(id, -32602, 'Invalid params: must be an array or an object') }
  return { jsonrpc: '2.0', id, method, params }
}

function failure(id: string | number | null, code: number, message: string): Answer {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

function rpcError(
  c: Context<AppEnv>,
  status: 400 | 403 | 413 | 415 | 429 | 502,
  id: string | number | null,
  code: number,
  message: string,
) {
  c.header('cache-control', 'no-store')
  return c.json(failure(id, code, message), status)
}

/**
 * Splits `https://user:pass@host/path` into the URL fetch accepts (it refuses credentials in a URL) and an
 * `Authorization: Basic` header carrying them.
 */
export function splitCredentials(rpcUrl: string): { url: string; headers: Record<string, string> } {
  const url = new URL(rpcUrl)
  if (!url.username && !url.password) return { url: rpcUrl, headers: {} }
  const user = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  return {
    url: url.toString(),
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  }
}
