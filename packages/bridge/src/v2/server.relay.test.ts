import { waitFor } from '@pairlink/test-kit'
import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { connect } from '../../test/client.js'
import { bridgeFixtures, useCleanups } from '../../test/fixtures.js'
import { signRelayJwt } from '../../test/relayJwt.js'

const cleanups = useCleanups()
const { bridge } = bridgeFixtures(cleanups)

/** Opens a v2 socket as the SDK does (no `/` before the query); resolves when open, rejects with the HTTP status. */
function open(base: string, token: string | undefined, projectId: string | null = 'p') {
  const query = new URLSearchParams({ ua: 'wc-2/js-2.25.0/linux/node', useOnCloseEvent: 'true' })
  if (projectId !== null) query.set('projectId', projectId)
  if (token !== undefined) query.set('auth', token)
  const ws = new WebSocket(`${base.replace('http', 'ws')}?${query}`)
  cleanups.push(async () => ws.terminate())
  const frames: string[] = []
  ws.on('message', (data) => frames.push(String(data)))
  return new Promise<{ ws: WebSocket; frames: string[] }>((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames }))
    ws.once('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk
      })
      response.on('end', () => reject(Object.assign(new Error(body), { status: response.statusCode })))
    })
    ws.once('error', reject)
  })
}

test('default: one port serves v2 (auth parameter) and v1 (none) side by side', async () => {
  const { url } = await bridge()
  const aud = url.replace('http', 'ws')
  const dapp = await open(url, signRelayJwt({ aud }).token)
  const wallet = await open(url, signRelayJwt({ aud }).token)
  const topic = 'c'.repeat(64)
  wallet.ws.send(
    JSON.stringify({ id: '1795338265514170880', jsonrpc: '2.0', method: 'irn_subscribe', params: { topic } }),
  )
  await waitFor(() => wallet.frames.length === 1, { message: 'subscribe answered' })
  expect(wallet.frames[0]).toMatch(/^\{"id":"1795338265514170880","jsonrpc":"2.0","result":"[0-9a-f]{64}"\}$/)
  dapp.ws.send(
    JSON.stringify({
      id: '2',
      jsonrpc: '2.0',
      method: 'irn_publish',
      params: { topic, message: 'm', ttl: 300, tag: 1108 },
    }),
  )
  await waitFor(() => wallet.frames.length === 2, { message: 'pushed' })
  expect(JSON.parse(wallet.frames[1] as string)).toMatchObject({
    method: 'irn_subscription',
    params: { data: { topic, message: 'm' } },
  })

  // v1 on the same port is untouched: a v1 frame on a v1 socket is relayed byte for byte.
  const v1a = await connect(url, { query: '?env=node&protocol=wc&version=1' })
  const v1b = await connect(url, { query: '?env=node&protocol=wc&version=1' })
  cleanups.push(
    () => v1a.close(),
    () => v1b.close(),
  )
  v1b.sub('t')
  await v1b.sync()
  const frame = v1a.pub('t', 'x')
  expect(await v1b.next()).toBe(frame)

  const metrics = await (await fetch(`${url}/metrics`)).text()
  for (const line of [
    'pairlink_relay_v2_connections 2',
    'pairlink_relay_v2_subscriptions 1',
    'pairlink_relay_v2_messages_published_total 1',
    'pairlink_relay_v2_messages_delivered_total 1',
    'pairlink_relay_v2_mailbox_messages 1',
  ])
    expect(metrics).toContain(line)
})

describe('error', () => {
  test('error: bad tokens are refused at the upgrade with 401 and a short reason, and counted', async () => {
    const { url, relay } = await bridge()
    const aud = url.replace('http', 'ws')
    const now = Math.floor(Date.now() / 1000)
    const cases: [string, RegExp][] = [
      ['', /missing/],
      ['x.y.z', /malformed/],
      [`${signRelayJwt({ aud }).token.slice(0, -4)}AAAA`, /signature/],
      [signRelayJwt({ aud, iat: now - 90_000, exp: now - 3_600 }).token, /expired/],
      [signRelayJwt({ aud: 'wss://relay.walletconnect.org' }).token, /audience/],
    ]
    for (const [token, reason] of cases)
      await expect(open(url, token)).rejects.toMatchObject({
        status: 401,
        message: expect.stringMatching(reason),
      })
    expect(relay?.counts.authRefusals).toBe(cases.length)
    const metrics = await (await fetch(`${url}/metrics`)).text()
    expect(metrics).toContain(`pairlink_relay_v2_auth_refusals_total ${cases.length}`)
  })

  test('error: with a projectId allow-list, a missing or unlisted projectId is refused with 403; a listed one connects', async () => {
    const { url, relay } = await bridge({ relay: { projectIds: ['0123456789abcdef0123456789abcdef'] } })
    const token = () => signRelayJwt({ aud: url.replace('http', 'ws') }).token
    await expect(open(url, token(), 'other')).rejects.toMatchObject({
      status: 403,
      message: 'Unknown projectId',
    })
    await expect(open(url, token(), null)).rejects.toMatchObject({
      status: 403,
      message: 'Missing projectId',
    })
    // The token is checked first: a bad one is 401 whatever the project.
    await expect(open(url, 'x.y.z', '0123456789abcdef0123456789abcdef')).rejects.toMatchObject({
      status: 401,
    })
    const listed = await open(url, token(), '0123456789abcdef0123456789abcdef')
    expect(listed.ws.readyState).toBe(WebSocket.OPEN)
    expect(relay?.counts.authRefusals).toBe(3)
    // Without the option any projectId, or none, is accepted as is.
    const open2 = await bridge()
    const none = await open(open2.url, signRelayJwt({ aud: open2.url.replace('http', 'ws') }).token, null)
    expect(none.ws.readyState).toBe(WebSocket.OPEN)
  })

  test('error: with relay: false an auth parameter is just a v1 query', async () => {
    const { url } = await bridge({ relay: false })
    const socket = await open(url, 'anything')
    expect(socket.ws.readyState).toBe(WebSocket.OPEN)
  })

  test('error: a malformed frame gets -32700 and the socket stays open', async () => {
    const { url } = await bridge()
    const c = await open(url, signRelayJwt({ aud: url.replace('http', 'ws') }).token)
    c.ws.send('{oops')
    c.ws.send(
      JSON.stringify({ id: 7, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: 'd'.repeat(64) } }),
    )
    await waitFor(() => c.frames.length === 2, { message: 'both answered' })
    expect(JSON.parse(c.frames[0] as string).error.code).toBe(-32700)
    expect(JSON.parse(c.frames[1] as string)).toMatchObject({ id: 7, result: expect.any(String) })
  })
})
