import { createServer } from 'node:http'
import { waitFor } from '@pairlink/test-kit'
import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { connect, type TestClient } from '../test/client.js'
import { bridgeFixtures, useCleanups } from '../test/fixtures.js'
import { attachBridge } from './attachBridge.js'
import { createBridge } from './createBridge.js'

const cleanups = useCleanups()
const { bridge, client } = bridgeFixtures(cleanups)

test('default', async () => {
  const { url } = await bridge()
  const dapp = await client(url)
  const wallet = await client(url)
  wallet.sub('t')
  await wallet.sync()
  const frame = dapp.pub('t', '{"data":"00","hmac":"11","iv":"22"}', false)
  expect(await wallet.next()).toBe(frame)
  // Not echoed to the publisher: it would have arrived before the round trip of dapp.rest().
  expect(await dapp.rest()).toEqual([])
})

describe('behavior', () => {
  test('behavior: accepts any path and query string, with or without a slash before it', async () => {
    const { url } = await bridge()
    const sockets = await Promise.all(
      ['?env=browser&host=dapp.example%3A8080&protocol=wc&version=1', '/?env=node', '', '/any/path?x=1'].map(
        (query) => client(url, { query }),
      ),
    )
    const [first, ...others] = sockets as [TestClient, ...TestClient[]]
    for (const other of others) other.sub('t')
    await Promise.all(others.map((other) => other.sync()))
    const frame = first.pub('t', 'x')
    for (const other of others) expect(await other.next()).toBe(frame)
  })

  test('behavior: a peer that connects later gets the queued messages (queued delivery)', async () => {
    const { url, counts } = await bridge()
    const dapp = await client(url)
    const frames = [dapp.pub('t', '1'), dapp.pub('t', '2'), dapp.pub('t', '3')]
    await waitFor(() => counts.queued === 3, { message: 'three messages queued' })
    const wallet = await client(url)
    wallet.sub('t')
    expect([await wallet.next(), await wallet.next(), await wallet.next()]).toEqual(frames)
    expect(counts.queued).toBe(3)
    const again = await client(url)
    again.sub('t')
    // Drained once: what was queued would reach `again` before the round trip of rest().
    expect(await again.rest()).toEqual([])
  })

  test('behavior: pings and terminates a socket that does not answer', async () => {
    const { url } = await bridge({ pingIntervalMs: 100 })
    const silent = await client(url, { autoPong: false })
    const healthy = await client(url)
    let pings = 0
    healthy.ws.on('ping', () => pings++)
    const { code } = await silent.closed
    expect(code).toBe(1006)
    // Two more pings reached the healthy socket: it answered and outlived a check that terminates the silent.
    const seen = pings
    await waitFor(() => pings >= seen + 2, { message: 'two more pings' })
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN)
  })

  test('behavior: close() closes every socket with 1001', async () => {
    const started = await bridge()
    const a = await client(started.url)
    await started.close()
    expect(await a.closed).toEqual({ code: 1001, reason: 'Server shutting down' })
  })

  test('behavior: trustProxy counts connections per X-Forwarded-For address', async () => {
    const { url, counts } = await bridge({ trustProxy: true, maxConnectionsPerIp: 1 })
    await client(url, { headers: { 'x-forwarded-for': '203.0.113.1' } })
    await client(url, { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.2' } })
    await expect(connect(url, { headers: { 'x-forwarded-for': '203.0.113.1' } })).rejects.toThrow('HTTP 429')
    expect(counts.connectionsRefused).toBe(1)
  })
})

describe('error', () => {
  test('error: a frame larger than maxFrameBytes closes that socket with 1009 only', async () => {
    const { url, counts } = await bridge({ maxFrameBytes: 1024 })
    const abuser = await client(url)
    const a = await client(url)
    const b = await client(url)
    b.sub('t')
    abuser.pub('t', 'x'.repeat(2000))
    expect((await abuser.closed).code).toBe(1009)
    expect(counts.invalidTooLarge).toBe(1)
    const frame = a.pub('t', 'x'.repeat(900))
    expect(await b.next()).toBe(frame)
  })

  test('error: binary frames are counted and ignored, the socket stays usable', async () => {
    const { url, counts } = await bridge()
    const a = await client(url)
    const b = await client(url)
    b.sub('t')
    a.ws.send(Buffer.from(JSON.stringify({ topic: 't', type: 'pub', payload: 'x', silent: true })))
    const frame = a.pub('t', 'y')
    expect(await b.next()).toBe(frame)
    expect(await b.rest()).toEqual([])
    expect(counts.invalidBinary).toBe(1)
  })

  test('error: connections beyond maxConnectionsPerIp are refused with 429', async () => {
    const { url, counts } = await bridge({ maxConnectionsPerIp: 2 })
    const first = await client(url)
    await client(url)
    await expect(connect(url)).rejects.toThrow('HTTP 429')
    expect(counts.connectionsRefused).toBe(1)
    await first.close()
    // The slot comes back when the server sees the TCP socket close; until then a new socket is still refused.
    const again = await waitFor(() => connect(url), { message: 'a connection accepted again' })
    cleanups.push(() => again.close())
  })
})

describe('http', () => {
  test('http: GET /hello, /info, /health and /metrics', async () => {
    const { url } = await bridge()
    const hello = await fetch(`${url}/hello`)
    expect(hello.status).toBe(200)
    expect(await hello.text()).toBe('Hello World, this is Pairlink Bridge v0.1.0')
    const info = await fetch(`${url}/info`)
    expect(await info.json()).toEqual({
      name: 'pairlink-bridge',
      description: 'WalletConnect v1 compatible bridge server',
      version: '0.1.0',
    })
    expect((await fetch(`${url}/health`)).status).toBe(204)
    const metrics = await (await fetch(`${url}/metrics`)).text()
    expect(metrics).toContain('pairlink_bridge_messages_published_total 0')
    expect((await fetch(`${url}/nope`)).status).toBe(404)
    expect((await fetch(`${url}/hello`, { method: 'POST' })).status).toBe(405)
  })

  test('http: POST /subscribe validates its body', async () => {
    const { url } = await bridge({ webhooks: { allowHosts: ['127.0.0.1'] } })
    const post = async (body: string) => {
      const response = await fetch(`${url}/subscribe`, { method: 'POST', body })
      return [response.status, await response.json()]
    }
    expect(await post(JSON.stringify({ topic: 't', webhook: 'http://127.0.0.1:1/push' }))).toEqual([
      200,
      { success: true },
    ])
    expect(await post('nope')).toEqual([400, { message: 'Error: missing or invalid request body' }])
    expect(await post('[]')).toEqual([400, { message: 'Error: missing or invalid request body' }])
    expect(await post(JSON.stringify({ webhook: 'http://127.0.0.1/' }))).toEqual([
      400,
      { message: 'Error: missing or invalid topic field' },
    ])
    expect(await post(JSON.stringify({ topic: 't', webhook: 5 }))).toEqual([
      400,
      { message: 'Error: missing or invalid webhook field' },
    ])
    expect(await post(JSON.stringify({ topic: 't', webhook: 'ftp://example.org/' }))).toEqual([
      400,
      { message: 'Error: missing or invalid webhook field (Webhook URL must use http or https)' },
    ])
    const [status] = await post(JSON.stringify({ topic: 't', webhook: 'x'.repeat(20_000) }))
    expect(status).toBe(413)
  })
})

describe('attachBridge', () => {
  test('behavior: shares the http.Server of an app: prefixed endpoints, app routes untouched, upgrades on any path', async () => {
    const bridge = createBridge()
    await bridge.start()
    const server = createServer()
    const attached = attachBridge(server, bridge, { handleRequests: false, prefix: '/bridge' })
    server.on('request', async (request, response) => {
      if (await attached.handleRequest(request, response)) return
      response.end(`app ${request.url}`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(async () => {
      await attached.close()
      await new Promise((resolve) => server.close(resolve))
      await bridge.close()
    })
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    expect(await (await fetch(`${url}/bridge/hello`)).text()).toBe(
      'Hello World, this is Pairlink Bridge v0.1.0',
    )
    expect(await (await fetch(`${url}/hello`)).text()).toBe('app /hello')
    expect(await (await fetch(`${url}/bridge/other`)).text()).toBe('app /bridge/other')
    const a = await client(`${url}/bridge`)
    const b = await client(url)
    b.sub('t')
    await b.sync()
    const frame = a.pub('t', 'x')
    expect(await b.next()).toBe(frame)
  })
})
