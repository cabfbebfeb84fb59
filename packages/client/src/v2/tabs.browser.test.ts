// @vitest-environment happy-dom
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { call, createPeers, echo, next } from '../../test/peers.js'
import { dappMetadata, events, grant, methods, startRelay, walletMetadata } from '../../test/sdk.js'
import type { WebSocketConstructor } from '../socket.js'
import { createLocalStorage, createMemoryStorage } from '../storage.js'
import {
  approve,
  connect,
  disconnect,
  emit,
  getSessions,
  pair,
  respond,
  type SignClient,
  update,
} from './index.js'

// Two tabs of one dapp are two v2 clients (`tabs: true`) over the page's one `localStorage` (happy-dom's) and Node's
// `BroadcastChannel`, which delivers between the instances of one process as browsers do between tabs. happy-dom
// has no Web Locks: every tab answers what its own socket got (Chromium's lock: e2e/product/twoTabs.spec.ts).
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, close } = createPeers(() => relay.relayUrl, { WebSocket })
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  await close()
  localStorage.clear()
})
afterAll(() => relay.stop())

/** A tab of the dapp: a v2 client sharing the page's storage with the other tabs. */
const openTab = (WebSocketOfTab: WebSocketConstructor = WebSocket) =>
  create(dappMetadata, createLocalStorage(), { tabs: true, WebSocket: WebSocketOfTab })

/** `tab` connects; our wallet (its own memory storage) approves eip155:1 and is acknowledged. */
async function connectTab(tab: SignClient) {
  const wallet = create(walletMetadata)
  const { uri, approval } = await connect(tab, {
    optionalNamespaces: { eip155: { chains: ['eip155:1', 'eip155:10'], methods, events } },
  })
  wallet.on('session_proposal', ({ id }) => void approve(wallet, { id, namespaces: grant() }).catch(() => {}))
  await pair(wallet, { uri: uri as string })
  const session = await approval()
  await waitFor(() => getSessions(wallet)[0]?.acknowledged, { message: 'wallet acknowledged' })
  return { wallet, session, topic: session.topic }
}

/** A `WebSocket` for one tab whose network can be cut: `cut()` closes its socket and every later one fails. */
function createCuttableWebSocket() {
  const sockets = new Set<WebSocket>()
  let cut = false
  class CuttableWebSocket extends WebSocket {
    constructor(url: string) {
      // Port 1 on loopback refuses at once.
      super(cut ? 'ws://127.0.0.1:1' : url)
      sockets.add(this)
    }
  }
  return {
    WebSocket: CuttableWebSocket,
    cut() {
      cut = true
      for (const socket of sockets) socket.close()
    },
  }
}

describe('tabs of one dapp share one v2 session', () => {
  test('behavior: a tab connects → another tab, idle, takes the session (`session_connect`, `tab`) and its requests are answered', async () => {
    const tabB = openTab()
    await tabB.ready
    const joined = next(tabB, 'session_connect')
    const tabA = openTab()
    const { wallet, session, topic } = await connectTab(tabA)
    expect(await joined).toEqual({ session, tab: true })
    expect(getSessions(tabB)).toEqual([session])
    // One relay identity: the relay never hands one tab what the other published.
    expect(tabB.clientId).toBe(tabA.clientId)
    const asked: string[] = []
    wallet.on('session_request', ({ params }) => asked.push((params.request.params as string[])[0] as string))
    echo(wallet)
    expect(await call(tabB, topic, 'from b')).toBe('from b')
    expect(await call(tabA, topic, 'from a')).toBe('from a')
    expect(asked).toEqual(['from b', 'from a'])
  })

  test('behavior: the wallet updates the session and emits an event → every tab hears both', async () => {
    const tabB = openTab()
    await tabB.ready
    const joined = next(tabB, 'session_connect')
    const tabA = openTab()
    const { wallet, topic } = await connectTab(tabA)
    await joined
    const updated = [next(tabA, 'session_update'), next(tabB, 'session_update')]
    await update(wallet, { topic, namespaces: grant(['eip155:1', 'eip155:10']) })
    for (const { params } of await Promise.all(updated))
      expect(params.namespaces.eip155?.chains).toEqual(['eip155:1', 'eip155:10'])
    const heard = [next(tabA, 'session_event'), next(tabB, 'session_event')]
    await emit(wallet, { topic, chainId: 'eip155:10', event: { name: 'chainChanged', data: 10 } })
    for (const { params } of await Promise.all(heard))
      expect(params.event).toEqual({ name: 'chainChanged', data: 10 })
  })

  test('behavior: disconnect in one tab → the others emit `session_delete` with `tab`; the wallet hears it; nothing stays stored', async () => {
    const tabB = openTab()
    await tabB.ready
    const joined = next(tabB, 'session_connect')
    const tabA = openTab()
    const { wallet, topic } = await connectTab(tabA)
    await joined
    const ended = next(tabB, 'session_delete')
    const heard = next(wallet, 'session_delete')
    await disconnect(tabA, { topic })
    expect(await ended).toEqual({ id: 0, topic, tab: true })
    expect((await heard).topic).toBe(topic)
    expect(getSessions(tabB)).toEqual([])
    await tabB.close()
    expect(JSON.parse(localStorage.getItem('pairlink-v2') as string).sessions).toEqual({})
  })

  test('behavior: while a tab’s socket is down, its answer, the update and the end reach it through another tab', async () => {
    const network = createCuttableWebSocket()
    const tabB = openTab()
    await tabB.ready
    const joined = next(tabB, 'session_connect')
    const tabA = openTab(network.WebSocket)
    const { wallet, topic } = await connectTab(tabA)
    await joined
    // Tab B's own round trip proves its subscription is live at the relay.
    wallet.once(
      'session_request',
      ({ id }) => void respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: 'b' } }),
    )
    expect(await call(tabB, topic, 'from b')).toBe('b')

    const asked = next(wallet, 'session_request')
    const answer = call(tabA, topic, 'from a')
    const { id } = await asked
    network.cut()
    await waitFor(() => tabA.transportState === 'connecting', { message: 'tab A offline' })
    // The relay hands the answer to tab B, the identity's one live socket, and keeps nothing for tab A.
    await respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: 'a, through b' } })
    expect(await answer).toBe('a, through b')

    const updated = next(tabA, 'session_update')
    // Answered by tab B, whose socket had it: the wallet's update does not wait for tab A.
    await update(wallet, { topic, namespaces: grant(['eip155:1', 'eip155:10']) })
    expect((await updated).params.namespaces.eip155?.chains).toEqual(['eip155:1', 'eip155:10'])
    const ended = next(tabA, 'session_delete')
    await disconnect(wallet, { topic })
    expect(await ended).toMatchObject({ topic })
    expect((await ended).tab).toBeUndefined()
    expect(tabA.transportState).toBe('connecting')
    expect(getSessions(tabA)).toEqual([])
  })

  test('behavior: a disconnect while the relay is down, then every tab reloads: the wallet still hears it when the relay is back', async () => {
    const tabB = openTab()
    await tabB.ready
    const joined = next(tabB, 'session_connect')
    const tabA = openTab()
    const { wallet, topic } = await connectTab(tabA)
    await joined
    await relay.stop()
    await waitFor(() => tabA.transportState === 'connecting', { message: 'relay gone' })
    const ended = next(tabB, 'session_delete')
    await disconnect(tabA, { topic })
    expect(await ended).toEqual({ id: 0, topic, tab: true })
    // Tab B writes the storage last: its state keeps tab A's delete too.
    await tabA.close()
    await tabB.close()
    const reloaded = openTab()
    await reloaded.ready
    expect(getSessions(reloaded)).toEqual([])
    const heard = next(wallet, 'session_delete')
    await relay.start()
    expect((await heard).topic).toBe(topic)
  })

  test('behavior: two tabs that each made a relay identity (opened at once) end with one', async () => {
    const [tabA, tabB] = [openTab(), openTab()]
    await Promise.all([tabA.ready, tabB.ready])
    const joined = next(tabB, 'session_connect')
    const { wallet, topic } = await connectTab(tabA)
    await joined
    await waitFor(() => tabA.clientId === tabB.clientId, { message: 'one identity' })
    echo(wallet)
    await waitFor(() => tabA.transportState === 'open' && tabB.transportState === 'open', {
      message: 'both open',
    })
    expect(await call(tabB, topic, 'from b')).toBe('from b')
    expect(await call(tabA, topic, 'from a')).toBe('from a')
  })

  test('behavior: a client without `tabs`, or on memory storage, keeps its sessions to itself', async () => {
    const own = create(dappMetadata, createLocalStorage(), { tabs: false })
    const memory = create(dappMetadata, createMemoryStorage(), { tabs: true })
    await Promise.all([own.ready, memory.ready])
    const tabB = openTab()
    const joined = next(tabB, 'session_connect')
    const { wallet, topic } = await connectTab(openTab())
    await joined
    // A round trip through the relay after the news went out: time enough for any client to have acted on it.
    echo(wallet)
    expect(await call(tabB, topic, 'marker')).toBe('marker')
    expect([getSessions(own), getSessions(memory)]).toEqual([[], []])
  })
})
