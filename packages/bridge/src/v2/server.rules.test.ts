import { RELAY_REFUSAL_CLOSE_CODE } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterEach, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { signRelayJwt } from '../../test/relayJwt.js'
import { startBridge } from '../../test/server.js'
import type { CreateBridgeServerParameters } from '../server.js'

// WalletConnect's hosted-relay rules as options of our relay, each over a real socket (docs/relay-v2.md).
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const PROJECT = '0123456789abcdef0123456789abcdef'
const SITE = 'fedcba9876543210fedcba9876543210'

async function bridge(parameters: CreateBridgeServerParameters = {}) {
  const started = await startBridge(parameters)
  cleanups.push(started.close)
  return { ...started, ws: started.url.replace('http', 'ws') }
}

type Outcome =
  | { open: WebSocket; frames: string[] }
  | { status: number; body: string }
  | { code: number; reason: string }

/** Opens a v2 socket as the SDK does; resolves open, refused by HTTP, or closed before any frame. */
function attempt(
  url: string,
  o: { token?: string; projectId?: string | null; origin?: string; host?: string } = {},
) {
  const query = new URLSearchParams({
    auth: o.token ?? signRelayJwt({ aud: url }).token,
    ua: 'wc-2/js-2.25.0',
  })
  if (o.projectId !== null) query.set('projectId', o.projectId ?? PROJECT)
  const ws = new WebSocket(`${url}?${query}`, {
    ...(o.origin ? { origin: o.origin } : {}),
    ...(o.host ? { headers: { host: o.host } } : {}),
  })
  cleanups.push(async () => ws.terminate())
  const frames: string[] = []
  ws.on('message', (data) => frames.push(String(data)))
  return new Promise<Outcome>((resolve, reject) => {
    // A refusal closes right after the upgrade: its close frame comes before the pong of a ping sent on open.
    ws.once('open', () => ws.ping())
    ws.once('pong', () => resolve({ open: ws, frames }))
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }))
    ws.once('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    ws.once('error', reject)
  })
}

const opened = (outcome: Outcome) => 'open' in outcome

describe('projects and origins', () => {
  test('args: projects: each project admits its own origins, local pages and clients without Origin', async () => {
    const { ws, relay, url } = await bridge({
      relay: { projects: { [PROJECT]: [], [SITE]: ['https://app.example', 'shop.example:8443'] } },
    })
    const site = { projectId: SITE }
    expect(opened(await attempt(ws, { ...site, origin: 'https://app.example' }))).toBe(true)
    expect(opened(await attempt(ws, { ...site, origin: 'http://shop.example:8443' }))).toBe(true)
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080'])
      expect(opened(await attempt(ws, { ...site, origin }))).toBe(true)
    expect(opened(await attempt(ws, site))).toBe(true)
    // An empty list admits every origin.
    expect(opened(await attempt(ws, { origin: 'https://anywhere.example' }))).toBe(true)
    for (const origin of ['https://evil.example', 'http://app.example', 'https://app.example:444', 'null'])
      expect(await attempt(ws, { ...site, origin })).toEqual({
        status: 403,
        body: 'Unauthorized: origin not allowed',
      })
    expect(await attempt(ws, { projectId: 'ffffffffffffffffffffffffffffffff' })).toEqual({
      status: 403,
      body: 'Unknown projectId',
    })
    expect(await attempt(ws, { projectId: null })).toEqual({ status: 403, body: 'Missing projectId' })
    expect(relay?.counts).toMatchObject({ originRefusals: 4, projectRefusals: 2, authRefusals: 6 })
    const metrics = await (await fetch(`${url}/metrics`)).text()
    expect(metrics).toContain('pairlink_relay_v2_origin_refusals_total 4')
    expect(metrics).toContain('pairlink_relay_v2_project_refusals_total 2')
  })

  test('args: allowedOrigins apply to every project, and alone to every connection', async () => {
    const both = await bridge({
      relay: {
        projects: { [PROJECT]: [], [SITE]: ['https://app.example'] },
        allowedOrigins: ['https://ops.example'],
      },
    })
    for (const projectId of [PROJECT, SITE]) {
      expect(opened(await attempt(both.ws, { projectId, origin: 'https://ops.example' }))).toBe(true)
      expect(await attempt(both.ws, { projectId, origin: 'https://evil.example' })).toMatchObject({
        status: 403,
      })
    }
    const alone = await bridge({ relay: { allowedOrigins: ['https://ops.example'] } })
    expect(opened(await attempt(alone.ws, { projectId: 'any', origin: 'https://ops.example' }))).toBe(true)
    expect(opened(await attempt(alone.ws, { projectId: null }))).toBe(true)
    expect(await attempt(alone.ws, { origin: 'https://evil.example' })).toMatchObject({ status: 403 })
    // Without any of the options, any origin (today's behaviour).
    const open = await bridge()
    expect(opened(await attempt(open.ws, { origin: 'https://evil.example' }))).toBe(true)
  })

  test('error: an allow-list entry that is not an origin is refused at start', async () => {
    await expect(bridge({ relay: { allowedOrigins: ['https://app.example/path'] } })).rejects.toThrow(
      /Invalid allowed origin: "https:\/\/app.example\/path"/,
    )
  })
})

describe("refusal: 'close'", () => {
  test("behavior: refusals accept the upgrade and close with 3000 and WalletConnect's words", async () => {
    const { ws, relay } = await bridge({
      relay: { projects: { [SITE]: ['https://app.example'] }, refusal: 'close' },
    })
    const code = RELAY_REFUSAL_CLOSE_CODE
    expect(await attempt(ws, { projectId: null })).toEqual({ code, reason: 'Project ID is missing' })
    expect(await attempt(ws, { projectId: PROJECT })).toEqual({ code, reason: 'Project not found' })
    expect(await attempt(ws, { projectId: SITE, origin: 'https://evil.example' })).toEqual({
      code,
      reason: 'Unauthorized: origin not allowed',
    })
    expect(await attempt(ws, { projectId: SITE, token: 'x.y.z' })).toEqual({
      code,
      reason: 'Unauthorized: malformed auth token',
    })
    expect(opened(await attempt(ws, { projectId: SITE, origin: 'https://app.example' }))).toBe(true)
    expect(relay?.counts.authRefusals).toBe(4)
  })
})

describe('audience and lifetime', () => {
  test('error: a token for another relay is refused, whatever Host the request names', async () => {
    const { ws } = await bridge()
    const other = signRelayJwt({ aud: 'ws://other.example' }).token
    expect(await attempt(ws, { token: other, host: 'other.example' })).toEqual({
      status: 401,
      body: 'auth token audience is not this relay',
    })
    // The relay's own listening names are its audiences: the address and, on loopback, localhost.
    const port = new URL(ws).port
    for (const aud of [ws, `ws://localhost:${port}`, `wss://127.0.0.1:${port}/`])
      expect(opened(await attempt(ws, { token: signRelayJwt({ aud }).token, host: 'other.example' }))).toBe(
        true,
      )
    const closing = await bridge({ relay: { refusal: 'close' } })
    expect(await attempt(closing.ws, { token: other, host: 'other.example' })).toEqual({
      code: RELAY_REFUSAL_CLOSE_CODE,
      reason: 'Unauthorized: auth token audience is not this relay',
    })
  })

  test('error: a token living longer than maxTokenLifetimeSeconds is refused', async () => {
    const { ws } = await bridge()
    const iat = Math.floor(Date.now() / 1000)
    const twoDays = signRelayJwt({ aud: ws, iat, exp: iat + 2 * 86_400 }).token
    expect(await attempt(ws, { token: twoDays })).toEqual({
      status: 401,
      body: 'auth token lifetime too long',
    })
    expect(
      opened(await attempt(ws, { token: signRelayJwt({ aud: ws, iat, exp: iat + 86_400 }).token })),
    ).toBe(true)
    const short = await bridge({ relay: { maxTokenLifetimeSeconds: 3_600 } })
    const day = signRelayJwt({ aud: short.ws, iat, exp: iat + 86_400 }).token
    expect(await attempt(short.ws, { token: day })).toMatchObject({ status: 401, body: /lifetime/ })
  })
})

describe('strictAudience', () => {
  test('behavior: aud must equal a relay URL exactly and the header be typ JWT, alg EdDSA', async () => {
    const loose = await bridge({ relayUrls: ['wss://relay.example.com'] })
    const strict = await bridge({ relayUrls: ['wss://relay.example.com'], strictAudience: true })
    // Host and port matching admits these on the loose relay; the exact rule refuses them.
    for (const aud of ['wss://relay.example.com/', 'ws://relay.example.com:443']) {
      expect(opened(await attempt(loose.ws, { token: signRelayJwt({ aud }).token }))).toBe(true)
      expect(await attempt(strict.ws, { token: signRelayJwt({ aud }).token })).toMatchObject({
        status: 401,
        body: /audience/,
      })
    }
    // With relay URLs configured, only they count: not the address the client reached.
    for (const { ws } of [loose, strict])
      for (const aud of [ws, `${ws}/`])
        expect(await attempt(ws, { token: signRelayJwt({ aud }).token })).toMatchObject({
          status: 401,
          body: /audience/,
        })
    const untyped = signRelayJwt({ aud: 'wss://relay.example.com', header: { typ: undefined } }).token
    expect(opened(await attempt(loose.ws, { token: untyped }))).toBe(true)
    expect(await attempt(strict.ws, { token: untyped })).toMatchObject({ status: 401, body: /type/ })
    const exact = signRelayJwt({ aud: 'wss://relay.example.com' }).token
    expect(opened(await attempt(strict.ws, { token: exact }))).toBe(true)
  })

  test('error: strictAudience without relayUrls is refused at start', async () => {
    await expect(bridge({ strictAudience: true })).rejects.toThrow(/strictAudience needs relayUrls/)
  })
})

/** Sends one request on an open socket and resolves with its answer. */
async function call(outcome: Outcome, request: Record<string, unknown>) {
  if (!('open' in outcome)) throw new Error('not open')
  const before = outcome.frames.length
  outcome.open.send(JSON.stringify({ jsonrpc: '2.0', ...request }))
  await waitFor(() => outcome.frames.length > before, { message: 'answered' })
  return JSON.parse(outcome.frames[before] as string)
}

describe('minRequestId', () => {
  test('behavior: ids below it (or not numeric) get -32600; the SDK-shaped ids pass', async () => {
    const topic = 'a'.repeat(64)
    const subscribe = (id: unknown) => ({ id, method: 'irn_subscribe', params: { topic } })
    const strict = await bridge({ relay: { minRequestId: 1e9 } })
    const socket = await attempt(strict.ws)
    for (const id of [7, '999999999', 'abc', 1e9 + 0.5]) {
      const answer = await call(socket, subscribe(id))
      expect(answer).toMatchObject({
        id,
        error: { code: -32600, message: expect.stringMatching(/at least 1000000000/) },
      })
    }
    for (const id of [1e9, '1795338265514170880', 1795338265514170])
      expect(await call(socket, subscribe(id))).toMatchObject({ id, result: expect.any(String) })
    expect(strict.relay?.counts.invalid).toBe(4)
    const loose = await bridge()
    expect(await call(await attempt(loose.ws), subscribe(7))).toMatchObject({
      id: 7,
      result: expect.any(String),
    })
  })
})

describe('maxMessageLengthByTag', () => {
  test("behavior: a publish over its tag's limit gets the hosted relay's message; other tags and the limit itself pass", async () => {
    const { ws } = await bridge({ relay: { maxMessageLengthByTag: { 1109: 10, 1100: 4 } } })
    const socket = await attempt(ws)
    const publish = (id: number, tag: number, length: number) =>
      call(socket, {
        id,
        method: 'irn_publish',
        params: { topic: 'b'.repeat(64), message: 'm'.repeat(length), ttl: 300, tag },
      })
    expect(await publish(1, 1109, 11)).toMatchObject({
      error: { code: -32602, message: 'Maximum size for tag 1109 is 10' },
    })
    expect(await publish(2, 1109, 10)).toMatchObject({ result: true })
    expect(await publish(3, 1108, 11)).toMatchObject({ result: true })
    // The relay's own publishes of wc_proposeSession carry tag 1100.
    const proposal = await call(socket, {
      id: 4,
      method: 'wc_proposeSession',
      params: { pairingTopic: 'c'.repeat(64), sessionProposal: 'p'.repeat(5), ttl: 300 },
    })
    expect(proposal).toMatchObject({ error: { message: 'Maximum size for tag 1100 is 4' } })
  })
})
