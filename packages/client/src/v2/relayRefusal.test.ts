import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test, vi } from 'vitest'
import { WebSocketServer } from 'ws'
import { createPeers } from '../../test/peers.js'
import { dappMetadata, events, methods, startRelay } from '../../test/sdk.js'
import { RelayRefusedError } from './errors.js'
import { connect, pair } from './index.js'
import { createRelayConnection } from './relay.js'

// A relay that refuses a client (contract "Relay refusal"): one clear error everywhere, and no reconnect loop.
const proposal = { optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } } }
let relayUrl = ''
const { create, close } = createPeers(() => relayUrl)
const servers: WebSocketServer[] = []
afterEach(async () => {
  await close()
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
  vi.useRealTimers()
})

/** A real `ws` server on port 0 that accepts every upgrade and then closes it with `code` / `reason`. */
async function startRefusingRelay(
  code: number,
  reason: string,
  when: 'at once' | 'on first call' = 'at once',
) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  const upgrades: string[] = []
  server.on('connection', (ws, request) => {
    upgrades.push(request.url ?? '')
    if (when === 'at once') ws.close(code, reason)
    else ws.once('message', () => ws.close(code, reason))
  })
  await new Promise((resolve) => server.once('listening', resolve))
  relayUrl = `ws://127.0.0.1:${(server.address() as { port: number }).port}`
  return { upgrades }
}

test('default: close 3000 "Project not found" rejects connect, emits relay_refused, and is not retried', async () => {
  const relay = await startRefusingRelay(3000, 'Project not found')
  const client = create(dappMetadata)
  const refusals: RelayRefusedError[] = []
  client.on('relay_refused', (error) => refusals.push(error))
  const error = await connect(client, proposal).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(RelayRefusedError)
  expect(error).toMatchObject({
    name: 'RelayRefusedError',
    code: 'ERR_RELAY_REFUSED',
    closeCode: 3000,
    reason: 'Project not found',
    kind: 'project-unknown',
  })
  expect((error as Error).message).toContain('https://dashboard.reown.com')
  expect(refusals).toEqual([error])
  expect(client.transportState).toBe('closed')
  expect(relay.upgrades).toHaveLength(1)
  // An explicit call tries once more, and is refused the same way.
  await expect(connect(client, proposal)).rejects.toMatchObject({ code: 'ERR_RELAY_REFUSED' })
  await waitFor(() => refusals.length === 2, { message: 'second refusal' })
  expect(relay.upgrades).toHaveLength(2)
})

test('args: each reason gives its kind; a 4xxx code refuses too', async () => {
  const cases: [number, string, string][] = [
    [3000, 'Project ID is missing', 'project-missing'],
    [3000, 'Unauthorized: origin not allowed', 'origin'],
    [4010, 'Invalid project id', 'project-unknown'],
    [4999, 'Go away', 'other'],
  ]
  for (const [code, reason, kind] of cases) {
    await startRefusingRelay(code, reason)
    const client = create(dappMetadata)
    await expect(connect(client, proposal)).rejects.toMatchObject({ closeCode: code, reason, kind })
  }
})

test('behavior: a close 4xxx after open rejects the call in flight (wallet role, pair)', async () => {
  const relay = await startRefusingRelay(4008, 'Unauthorized: origin not allowed', 'on first call')
  const wallet = create({ ...dappMetadata, name: 'wallet' })
  const uri = `wc:${'ab'.repeat(32)}@2?relay-protocol=irn&symKey=${'cd'.repeat(32)}&expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}`
  const refused = new Promise((resolve) => wallet.once('relay_refused', resolve))
  await expect(pair(wallet, { uri })).rejects.toMatchObject({ code: 'ERR_RELAY_REFUSED', kind: 'origin' })
  await refused
  expect(wallet.transportState).toBe('closed')
  expect(relay.upgrades).toHaveLength(1)
})

test('behavior: Pairlink’s relay refusing the upgrade with HTTP 403 (Node) is a refusal, tried once', async () => {
  const kiosk = await startRelay({ relay: { projectIds: ['kiosk-1'] } })
  try {
    relayUrl = kiosk.relayUrl
    const client = create(dappMetadata, undefined, { projectId: 'not-kiosk' })
    const error = await connect(client, proposal).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_RELAY_REFUSED', closeCode: 403, kind: 'other' })
    expect(client.transportState).toBe('closed')
    expect(kiosk.counts().authRefusals).toBe(1)
  } finally {
    await close()
    await kiosk.stop()
  }
})

// The unit's seam: a fake socket and fake timers show what the connection does after a refusal, over minutes.
class FakeSocket {
  static made: FakeSocket[] = []
  static code = 3000
  readyState = 0
  onopen: ((event: unknown) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.made.push(this)
    setTimeout(() => {
      this.readyState = 3
      this.onclose?.({ code: FakeSocket.code, reason: 'Project not found' })
    }, 1)
  }
  send() {}
  close() {}
}

async function attemptsAfterClose(code: number) {
  vi.useFakeTimers()
  FakeSocket.made = []
  FakeSocket.code = code
  // Node has no `online` event: a window-like target for the connection to listen on.
  const target = new EventTarget()
  const global = globalThis as { addEventListener?: unknown; removeEventListener?: unknown }
  global.addEventListener = target.addEventListener.bind(target)
  global.removeEventListener = target.removeEventListener.bind(target)
  try {
    const connection = createRelayConnection({
      url: async () => 'ws://relay.invalid',
      WebSocket: FakeSocket,
      topics: () => ['ab'.repeat(32)],
      onMessage() {},
      onDuplicate() {},
      onMalformed() {},
      reconnect: { minDelay: 10, maxDelay: 1000 },
    })
    const call = connection.request('irn_subscribe', { topic: 'ab'.repeat(32) }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(5)
    // What would reconnect: the network coming back, and minutes of backoff.
    target.dispatchEvent(new Event('online'))
    await vi.advanceTimersByTimeAsync(120_000)
    connection.close()
    return { attempts: FakeSocket.made.length, error: await call }
  } finally {
    delete global.addEventListener
    delete global.removeEventListener
  }
}

test('behavior: after a refusal neither the online event nor any timer opens a socket (a lost one would)', async () => {
  const refused = await attemptsAfterClose(3000)
  expect(refused.attempts).toBe(1)
  expect(refused.error).toBeInstanceOf(RelayRefusedError)
  // The same seam with a transient close: the connection keeps trying, so the count above can fail.
  const lost = await attemptsAfterClose(1001)
  expect(lost.attempts).toBeGreaterThan(10)
})
