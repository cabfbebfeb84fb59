import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend } from '@pairlink/bridge'
import { ANVIL_ACCOUNT, type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type CreateAppServerParameters, createAppServer } from './createAppServer.js'
import { createWalletList } from './registry.js'

const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let anvil: Anvil
let bridge: ReturnType<typeof createBridge>
/** Every request the node received through the proxy: path, headers and parsed body. */
const seen: { path: string; headers: IncomingHttpHeaders; body: unknown }[] = []
/** While set, the recorder holds answers until it resolves (to hold a request in flight). */
let hold: Promise<void> | undefined
let recorder: Server
let recorderUrl: string
const servers: ReturnType<typeof createAppServer>[] = []

/** A node in front of anvil that records what reaches it (the proxy's upstream), then answers with anvil's answer. */
function startRecorder(): Promise<Server> {
  const server = createServer(async (request, response) => {
    let text = ''
    for await (const chunk of request) text += chunk
    seen.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) })
    await hold
    const answer = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    })
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(await answer.text())
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

async function startApp(overrides: Partial<CreateAppServerParameters> = {}): Promise<string> {
  const app = createAppServer({
    bridge,
    rpcUrl: recorderUrl,
    chainId: anvil.chainId,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: '/nonexistent',
    walletDir: '/nonexistent',
    ...overrides,
  })
  servers.push(app)
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
}

let origin: string
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  bridge = createBridge({ backend: createMemoryBackend(), logger: pino({ level: 'silent' }) })
  await bridge.start()
  recorder = await startRecorder()
  recorderUrl = `http://127.0.0.1:${(recorder.address() as { port: number }).port}/`
  origin = await startApp()
})

afterAll(async () => {
  for (const app of servers) await app.close()
  await new Promise<void>((resolve) => recorder?.close(() => resolve()))
  await bridge?.close()
  await anvil?.stop()
})

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

/** The state an attack through `/rpc` would change: balances, the dev account's nonce, the block height. */
async function chainState() {
  return {
    sender: await rpc(anvil.url, 'eth_getBalance', [ANVIL_ACCOUNT.address, 'latest']),
    recipient: await rpc(anvil.url, 'eth_getBalance', [RECIPIENT, 'latest']),
    nonce: await rpc(anvil.url, 'eth_getTransactionCount', [ANVIL_ACCOUNT.address, 'latest']),
    block: await rpc(anvil.url, 'eth_blockNumber'),
  }
}

describe('/rpc', () => {
  test('default: the reads a dapp needs are forwarded, with the caller’s ids, single and batched', async () => {
    expect(await (await post(origin, call('eth_chainId', [], 'a'))).json()).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: '0x7a69',
    })
    const batch = (await (
      await post(origin, [call('eth_blockNumber', [], 5), call('net_version', [], 5)])
    ).json()) as { id: number; result: string }[]
    expect(batch.map((answer) => answer.id)).toEqual([5, 5])
    expect(batch[1]!.result).toBe('31337')
  })

  test('behavior: a v1 request with skipCache is answered; the node only ever sees jsonrpc, id, method, params', async () => {
    // anvil refuses unknown fields ("Invalid request"): what v1's web3-provider sends directly fails there.
    const direct = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...call('eth_blockNumber'), skipCache: true }),
    })
    expect(((await direct.json()) as { error?: unknown }).error).toBeDefined()

    seen.length = 0
    const answer = (await (
      await post(origin, { ...call('eth_blockNumber', [], 9), skipCache: true, extra: { x: 1 } })
    ).json()) as { id: number; result?: string }
    expect(answer).toMatchObject({ id: 9, result: expect.stringMatching(/^0x/) })
    expect(seen).toHaveLength(1)
    expect(Object.keys(seen[0]!.body as object).sort()).toEqual(['id', 'jsonrpc', 'method', 'params'])
  })

  test('error: the attacks of issue 12 are refused here and the chain is unchanged', async () => {
    const before = await chainState()
    seen.length = 0
    const refused: [string, unknown[]][] = [
      // Moving 1 000 ETH out of anvil's unlocked dev account.
      [
        'eth_sendTransaction',
        [{ from: ANVIL_ACCOUNT.address, to: RECIPIENT, value: '0x3635c9adc5dea00000' }],
      ],
      ['anvil_reset', []],
      ['anvil_setBalance', [RECIPIENT, '0xffffffffffffffffffff']],
      ['evm_mine', []],
      ['eth_sign', [ANVIL_ACCOUNT.address, '0xdeadbeef']],
      ['personal_sign', ['0xdeadbeef', ANVIL_ACCOUNT.address]],
      ['eth_signTypedData_v4', [ANVIL_ACCOUNT.address, '{}']],
      ['eth_accounts', []],
      ['admin_nodeInfo', []],
      ['debug_traceTransaction', [`0x${'00'.repeat(32)}`]],
      ['personal_unlockAccount', [ANVIL_ACCOUNT.address, '', 0]],
      ['txpool_content', []],
    ]
    for (const [method, params] of refused) {
      const response = await post(origin, call(method, params))
      expect(response.status, method).toBe(200)
      expect(await response.json(), method).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: `Method ${method} is not available through /rpc` },
      })
    }
    // Hidden in a batch beside an allowed call: answered in place, and only the allowed call reaches the node.
    const mixed = (await (
      await post(origin, [call('eth_sendTransaction', [{ to: RECIPIENT }], 1), call('eth_chainId', [], 2)])
    ).json()) as { id: number; error?: { code: number }; result?: string }[]
    expect(mixed).toEqual([
      { jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32601 }) },
      { jsonrpc: '2.0', id: 2, result: '0x7a69' },
    ])
    expect(seen.map((s) => s.body)).toEqual([[{ jsonrpc: '2.0', id: 0, method: 'eth_chainId', params: [] }]])
    expect(await chainState()).toEqual(before)
  })

  test('error: a 2000-call batch is refused whole, before the node', async () => {
    seen.length = 0
    const batch = Array.from({ length: 2000 }, (_, i) => call('eth_blockNumber', [], i))
    const response = await post(origin, batch)
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: /at most 20/ } })
    // Marker: a batch within the cap reaches the node, so the refused one would have been seen too.
    const allowed = await post(origin, batch.slice(0, 20))
    expect(((await allowed.json()) as unknown[]).length).toBe(20)
    expect(seen).toHaveLength(1)
  })

  test('error: a cross-origin text/plain post (no preflight) is refused unread; so is a foreign Origin', async () => {
    const before = await chainState()
    seen.length = 0
    const body = JSON.stringify(call('eth_sendTransaction', [{ from: ANVIL_ACCOUNT.address, to: RECIPIENT }]))
    const plain = await fetch(`${origin}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body,
    })
    expect(plain.status).toBe(403)
    const plainSameSite = await fetch(`${origin}/rpc`, { method: 'POST', body })
    expect(plainSameSite.status).toBe(415)
    const foreign = await post(origin, call('eth_chainId'), { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    // Marker: the same call from this site's own page reaches the node.
    expect((await post(origin, call('eth_chainId'), { origin })).status).toBe(200)
    expect(seen).toHaveLength(1)
    expect(await chainState()).toEqual(before)
  })

  test('error: bad input is a clear JSON-RPC error, never a 5xx', async () => {
    const cases: [unknown, number, number][] = [
      ['{"jsonrpc":', 400, -32700],
      [[], 400, -32600],
    ]
    for (const [body, status, code] of cases) {
      const response = await post(origin, body)
      expect(response.status).toBe(status)
      expect(await response.json()).toMatchObject({ error: { code } })
    }
    const answers = (await (
      await post(origin, [
        42,
        { id: 1 },
        { id: {}, method: 'eth_chainId' },
        call('eth_getLogs', ['latest'], 4),
      ])
    ).json()) as { error: { code: number } }[]
    expect(answers.map((a) => a.error.code)).toEqual([-32600, -32600, -32600, -32602])
  })

  test('error: eth_getLogs over more than 1000 blocks is refused; a bounded range is forwarded', async () => {
    const wide = await post(origin, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x100000' }]))
    expect(await wide.json()).toMatchObject({ error: { code: -32602, message: /at most 1000 blocks/ } })
    const earliest = await post(origin, call('eth_getLogs', [{ fromBlock: 'earliest' }]))
    expect(await earliest.json()).toMatchObject({ error: { code: -32602 } })
    const narrow = await post(origin, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]))
    expect(await narrow.json()).toMatchObject({ result: [] })
  })

  test('error: calls per address beyond the rate are 429; a batch costs one per call', async () => {
    const limited = await startApp({ rpcLimits: { rate: { burst: 30, perSecond: 0.001 } } })
    const batch = Array.from({ length: 20 }, (_, i) => call('eth_chainId', [], i))
    expect((await post(limited, batch)).status).toBe(200)
    expect((await post(limited, batch.slice(0, 10))).status).toBe(200)
    const over = await post(limited, call('eth_chainId'))
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await over.json()).toMatchObject({ error: { code: -32005 } })
  })

  test('error: requests of one address in flight beyond the cap are 429', async () => {
    const limited = await startApp({ rpcLimits: { maxConcurrent: 1 } })
    let release = () => {}
    hold = new Promise((resolve) => {
      release = resolve
    })
    seen.length = 0
    const first = post(limited, call('eth_chainId'))
    // The first request is at the node (held there) before the second is sent.
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const second = await post(limited, call('eth_chainId'))
    expect(second.status).toBe(429)
    hold = undefined
    release()
    expect((await first).status).toBe(200)
    // Its slot is given back.
    expect((await post(limited, call('eth_chainId'))).status).toBe(200)
  })

  test('args: RPC_URL with credentials and a key in its path works; the node gets them as Authorization', async () => {
    const url = recorderUrl.replace('http://', 'http://alice:p%40ss@').replace(/\/$/, '/v3/KEY123')
    const withKey = await startApp({ rpcUrl: url })
    seen.length = 0
    expect(await (await post(withKey, call('eth_chainId'))).json()).toMatchObject({ result: '0x7a69' })
    expect(seen[0]!.path).toBe('/v3/KEY123')
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('alice:p@ss').toString('base64')}`)
  })

  test('error: an unreachable node is a 502 that names neither its address nor its credentials', async () => {
    const down = await startApp({ rpcUrl: 'http://alice:hunter2@127.0.0.1:1/v3/KEY123' })
    const response = await post(down, call('eth_chainId', [], 3))
    expect(response.status).toBe(502)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32603, message: 'RPC node unreachable' },
    })
    expect(text).not.toMatch(/hunter2|KEY123|127\.0\.0\.1:1/)
    // An open eth_getLogs range needs the node's tip first: still a JSON-RPC error, never a 500.
    const logs = await post(down, call('eth_getLogs', [{ fromBlock: '0x0' }], 4))
    expect(logs.status).toBe(200)
    expect(await logs.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: 'RPC node unreachable' },
    })
  })
})
