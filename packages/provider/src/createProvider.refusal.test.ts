import { createMemoryStorage, type WebSocketLike } from '@pairlink/client'
import { RelayRefusedError } from '@pairlink/client/v2'
import { WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { createProvider, type Provider } from './createProvider.js'
import { ConnectionRefusedError } from './errors.js'
import type { V2Client } from './v2Client.js'

// A relay that refuses the dapp (contract "Relay refusal"): the provider says so once, recognisably, and stops.
const servers: WebSocketServer[] = []
const providers: Provider[] = []
afterEach(async () => {
  for (const provider of providers.splice(0)) await (provider.client as unknown as V2Client).close()
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

const modal = { open() {}, close() {} }

test('default: a close 3000 rejects enable() with ERR_RELAY_REFUSED (cause the client’s error) and emits relay_refused', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  let upgrades = 0
  server.on('connection', (ws) => {
    upgrades++
    ws.close(3000, 'Unauthorized: origin not allowed')
  })
  await new Promise((resolve) => server.once('listening', resolve))
  const provider = createProvider({
    relayUrl: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    projectId: '0123456789abcdef0123456789abcdef',
    modal,
    clientParameters: { storage: createMemoryStorage(), reconnect: { minDelay: 1, maxDelay: 5 } },
    rpc: { 1: 'http://127.0.0.1:1' },
  })
  providers.push(provider)
  const events: unknown[] = []
  provider.on('relay_refused', (error) => events.push(error))
  const error = await provider.enable().catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ConnectionRefusedError)
  expect(error).toMatchObject({
    code: 'ERR_RELAY_REFUSED',
    closeCode: 3000,
    reason: 'Unauthorized: origin not allowed',
    kind: 'origin',
  })
  expect((error as Error).cause).toBeInstanceOf(RelayRefusedError)
  await waitFor(() => events.length === 1, { message: 'relay_refused' })
  expect(events[0]).toMatchObject({ code: 'ERR_RELAY_REFUSED', kind: 'origin' })
  expect(provider.connected).toBe(false)
  expect(upgrades).toBe(1)
  // eth_requestAccounts is enable(): the same error, after exactly one more try.
  await expect(provider.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject({
    code: 'ERR_RELAY_REFUSED',
  })
  expect(upgrades).toBe(2)
})

test('args: a projectId without relayUrl pairs through WalletConnect’s relay', async () => {
  const urls: string[] = []
  // The seam the client takes its sockets from: what it would dial, refused as the hosted relay does for a bad id.
  class Dialled implements WebSocketLike {
    readyState = 0
    onopen: WebSocketLike['onopen'] = null
    onclose: WebSocketLike['onclose'] = null
    onerror: WebSocketLike['onerror'] = null
    onmessage: WebSocketLike['onmessage'] = null
    constructor(url: string) {
      urls.push(url)
      setTimeout(() => this.onclose?.({ code: 3000, reason: 'Project not found' }), 0)
    }
    send() {}
    close() {}
  }
  const provider = createProvider({
    projectId: 'ffffffffffffffffffffffffffffffff',
    modal,
    clientParameters: { storage: createMemoryStorage(), WebSocket: Dialled },
    rpc: { 1: 'http://127.0.0.1:1' },
  })
  providers.push(provider)
  expect((provider.client as { version?: number }).version).toBe(2)
  await expect(provider.enable()).rejects.toMatchObject({ kind: 'project-unknown' })
  const url = new URL(urls[0] as string)
  expect(`${url.protocol}//${url.host}`).toBe(WALLETCONNECT_RELAY_URL)
  expect(url.searchParams.get('projectId')).toBe('ffffffffffffffffffffffffffffffff')
})

test('behavior: refused while the modal gets a fresh code → the modal closes and enable() rejects with the refusal', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  let refuse = false
  server.on('connection', (ws) => {
    if (refuse) return ws.close(3000, 'Project not found')
    // A relay that takes the first pairing: every call answered.
    ws.on('message', (data) => {
      const { id } = JSON.parse(String(data)) as { id: string }
      ws.send(JSON.stringify({ id, jsonrpc: '2.0', result: true }))
    })
  })
  await new Promise((resolve) => server.once('listening', resolve))
  let onExpired: (() => unknown) | undefined
  let closed = 0
  const shown = {
    open(_uri: string, _onUserClose: () => void, options?: unknown) {
      onExpired = (options as { onExpired: () => unknown }).onExpired
    },
    close() {
      closed++
    },
  }
  const provider = createProvider({
    relayUrl: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    projectId: '0123456789abcdef0123456789abcdef',
    modal: shown,
    clientParameters: { storage: createMemoryStorage(), reconnect: { minDelay: 1, maxDelay: 5 } },
    rpc: { 1: 'http://127.0.0.1:1' },
  })
  providers.push(provider)
  const refused: unknown[] = []
  provider.on('relay_refused', (error) => refused.push(error))
  const enabled = provider.enable().catch((e: unknown) => e)
  await waitFor(() => onExpired !== undefined, { message: 'the first code shown' })
  // The relay now refuses this site (its project was deleted): the socket drops and the reconnect is refused.
  refuse = true
  for (const ws of server.clients) ws.close(1001)
  await waitFor(() => refused.length === 1, { message: 'relay_refused' })
  // The code runs out: the modal asks for a fresh one, which the relay refuses too.
  await Promise.resolve(onExpired?.()).catch(() => {})
  expect(await enabled).toMatchObject({ code: 'ERR_RELAY_REFUSED', kind: 'project-unknown' })
  expect(closed).toBeGreaterThanOrEqual(1)
})
