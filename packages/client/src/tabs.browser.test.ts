// @vitest-environment happy-dom
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { account, createDapp, createTestModal, next, pair } from '../test/utils.js'
import type { WebSocketConstructor } from './socket.js'
import { createLocalStorage, createMemoryStorage } from './storage.js'

// Two tabs of one dapp are two clients over the page's one `localStorage` (happy-dom's) and Node's
// `BroadcastChannel`, which delivers between the instances of one process as browsers do between tabs.

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())
beforeEach(() => localStorage.clear())

/** Tab A: connected by `pair` (our wallet approves), keeping its session in `localStorage`. */
const pairTabA = (WebSocketOfA: WebSocketConstructor = WebSocket) =>
  pair(bridge.url, { dapp: { storage: undefined, WebSocket: WebSocketOfA }, wallet: { WebSocket } })

/** Tab B: a dapp on the same page storage, not connected. */
const openTabB = (modal = createTestModal()) => createDapp({ bridge: bridge.url, WebSocket, modal })

/**
 * A `WebSocket` for one tab whose network can be cut: `cut()` closes its socket and every later one fails to
 * connect, so the tab keeps retrying while the other tabs stay online.
 */
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

describe('tabs of one dapp share one session', () => {
  test('behavior: a tab connected → another tab, idle, takes the session (`connect`) and its requests work', async () => {
    const tabB = openTabB()
    const picked = next(tabB, 'connect')
    const { dapp: tabA, wallet } = await pairTabA()
    expect(await picked).toEqual({
      peerId: wallet.clientId,
      peerMeta: expect.objectContaining({ name: 'Wallet' }),
      chainId: 1,
      accounts: [account],
    })
    expect(tabB.connected).toBe(true)
    expect(tabB.clientId).toBe(tabA.clientId)
    wallet.on('call_request', ({ id, method }) => void wallet.approveRequest({ id, result: method }))
    await expect(tabB.request({ method: 'from_b' })).resolves.toBe('from_b')
    await tabA.killSession()
    tabB.close()
  })

  test('behavior: a tab that was pairing takes the session another tab connected: modal closed, `connect()` resolved', async () => {
    const modal = createTestModal()
    const tabB = openTabB(modal)
    const pairing = tabB.connect({ chainId: 1 })
    await modal.opened
    await waitFor(() => tabB.transportState === 'open')
    const { dapp: tabA, wallet } = await pairTabA()
    await expect(pairing).resolves.toMatchObject({ peerId: wallet.clientId, accounts: [account] })
    expect(modal.closed).toBe(1)
    expect(tabB.uri).toBeUndefined()
    // Its socket was open on its own pairing's topics: it subscribed the session's too.
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'ok' }))
    await expect(tabB.request({ method: 'from_b' })).resolves.toBe('ok')
    await tabA.killSession()
    tabB.close()
  })

  test('behavior: a request is answered in its own tab only, and the wallet is asked once', async () => {
    const tabB = openTabB()
    const picked = next(tabB, 'connect')
    const { dapp: tabA, wallet } = await pairTabA()
    await picked
    const asked: string[] = []
    wallet.on('call_request', ({ id, method }) => {
      asked.push(method)
      void wallet.approveRequest({ id, result: `answer to ${method}` })
    })
    await expect(tabA.request({ method: 'from_a' })).resolves.toBe('answer to from_a')
    await expect(tabB.request({ method: 'from_b' })).resolves.toBe('answer to from_b')
    expect(asked).toEqual(['from_a', 'from_b'])
    await tabA.killSession()
    tabB.close()
  })

  test('behavior: killSession in one tab → the others emit `disconnect` with its message; the wallet is told once', async () => {
    const tabB = openTabB()
    const picked = next(tabB, 'connect')
    const { dapp: tabA, wallet } = await pairTabA()
    await picked
    const pendingInB = tabB.request({ method: 'never_answered' })
    await next(wallet, 'call_request')
    let walletDisconnects = 0
    wallet.on('disconnect', () => walletDisconnects++)
    const ended = next(tabB, 'disconnect')
    await tabA.killSession()
    expect(await ended).toEqual({ message: 'Session Disconnected' })
    expect(tabB.connected).toBe(false)
    await expect(pendingInB).rejects.toThrow('Session Disconnected')
    await waitFor(() => walletDisconnects === 1)
    expect(localStorage.getItem('walletconnect')).toBeNull()
    tabB.close()
  })

  test('behavior: an answer reaches its tab through another tab while its own socket is down', async () => {
    const network = createCuttableWebSocket()
    const tabB = openTabB()
    const picked = next(tabB, 'connect')
    const { dapp: tabA, wallet } = await pairTabA(network.WebSocket)
    await picked
    // Tab B's own round trip proves its subscription is live at the bridge.
    wallet.once('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'b' }))
    await expect(tabB.request({ method: 'from_b' })).resolves.toBe('b')

    const asked = next(wallet, 'call_request')
    const answer = tabA.request({ method: 'from_a' })
    const { id } = await asked
    network.cut()
    await waitFor(() => tabA.transportState === 'connecting')
    // The bridge hands the answer to tab B, the topic's one live socket, and so queues nothing for tab A.
    await wallet.approveRequest({ id, result: 'a, through b' })
    await expect(answer).resolves.toBe('a, through b')
    expect(tabA.transportState).toBe('connecting')

    const updated = next(tabA, 'session_update')
    await wallet.updateSession({ chainId: 5, accounts: [account] })
    expect(await updated).toEqual({ chainId: 5, accounts: [account] })
    const ended = next(tabA, 'disconnect')
    await wallet.killSession()
    expect(await ended).toEqual({ message: 'Session disconnected' })
    expect(tabA.connected).toBe(false)
    tabA.close()
    tabB.close()
  })

  test('behavior: a dapp with storage of its own, a closed one and a client given its session do not follow', async () => {
    const own = createDapp({ bridge: bridge.url, WebSocket, storage: createMemoryStorage() })
    const sessionStorageTab = createDapp({
      bridge: bridge.url,
      WebSocket,
      storage: createLocalStorage(sessionStorage),
    })
    const closed = openTabB()
    await closed.close()
    const follower = openTabB()
    const picked = next(follower, 'connect')
    const { dapp: tabA, wallet } = await pairTabA()
    await picked
    // Given a session (as a wallet restores one): its own, not the tabs'.
    const given = createDapp({ session: tabA.session, WebSocket, storage: undefined })
    // A round trip through the bridge after the news went out: time enough for any tab to have acted on it.
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'ok' }))
    await expect(follower.request({ method: 'marker' })).resolves.toBe('ok')
    expect([own.connected, sessionStorageTab.connected, closed.connected]).toEqual([false, false, false])
    const ended = next(follower, 'disconnect')
    await tabA.killSession()
    await ended
    expect(given.connected).toBe(true)
    for (const client of [own, sessionStorageTab, follower, given]) await client.close()
  })
})
