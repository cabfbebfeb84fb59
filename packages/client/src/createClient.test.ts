import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InvalidUriError, SessionError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { createRecorder } from '../test/recorder.js'
import { account, createDapp, createWallet, dappMeta, next, pair, walletMeta } from '../test/utils.js'
import { request } from './actions/request.js'
import { createClient } from './createClient.js'
import { dappActions } from './decorators/dappActions.js'
import { walletActions } from './decorators/walletActions.js'
import { InvalidClientOptionsError } from './errors.js'
import { createFileStorage, createMemoryStorage } from './storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  expect(dapp.connected).toBe(true)
  expect(dapp.accounts).toEqual([account])
  expect(dapp.chainId).toBe(1)
  expect(dapp.peerId).toBe(wallet.clientId)
  expect(dapp.peerMeta).toEqual(walletMeta)
  expect(wallet.peerMeta).toEqual(dappMeta)
  expect(wallet.peerId).toBe(dapp.clientId)
  expect(dapp.transportState).toBe('open')
  dapp.close()
  wallet.close()
})

test('error: none of bridge / uri / session', () => {
  expect(() => createClient({})).toThrowError(
    new InvalidClientOptionsError('Missing one of the required parameters: bridge / uri / session'),
  )
})

describe('request', () => {
  test('default', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    wallet.on('call_request', (request) => {
      void wallet.approveRequest({ id: request.id, result: { echo: request.params } })
    })
    await expect(dapp.request({ method: 'custom_method', params: [1] })).resolves.toEqual({ echo: [1] })
    await expect(dapp.request({ method: 'eth_accounts' })).resolves.toEqual([account])
    await expect(dapp.request({ method: 'eth_chainId' })).resolves.toBe('0x1')
    dapp.close()
    wallet.close()
  })

  test('error: disconnected', async () => {
    const dapp = createDapp({ bridge: bridge.url, storage: false })
    await expect(dapp.request({ method: 'eth_accounts' })).rejects.toThrowError(
      new SessionError('Session currently disconnected'),
    )
  })
})

describe('wallet role', () => {
  test.each([
    ['WC:abc@1?bridge=x&key=y', 'URI format is invalid'],
    ['http://example.com', 'URI format is invalid'],
    ['wc:@1?bridge=x&key=y', 'Invalid or missing handshakeTopic parameter value'],
    ['wc:abc@1?key=y', 'Invalid or missing bridge url parameter value'],
    ['wc:abc@1?bridge=https%3A%2F%2Fb.example', 'Invalid or missing key parameter value'],
  ])('error: invalid uri %s', (uri, message) => {
    expect(() => createClient({ uri })).toThrowError(new InvalidUriError(message))
  })

  test('behavior: error messages never contain the URI or its key', () => {
    const key = 'f'.repeat(64)
    try {
      createClient({ uri: `wc:topic@1?key=${key}` })
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(key)
    }
  })
})

describe('restore', () => {
  test('args: session', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    const session = dapp.session
    dapp.close()
    const restored = createDapp({ session, storage: false })
    expect(restored.connected).toBe(true)
    expect(restored.session).toEqual(session)
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'ok' }))
    await expect(restored.request({ method: 'x' })).resolves.toBe('ok')
    restored.close()
    wallet.close()
  })

  test('behavior: memory storage shared by two instances; messages held by the bridge arrive', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await pair(bridge.url, { wallet: { storage } })
    wallet.close()
    // Only the dapp's socket left: the bridge must hold the request, not hand it to the closing socket.
    await waitFor(() => bridge.counts().connections === 1)
    const queued = bridge.counts().queued
    const pending = dapp.request({ method: 'while_away' })
    await waitFor(() => bridge.counts().queued > queued, { message: 'the request held by the bridge' })
    const restored = createWallet({ bridge: bridge.url, storage })
    expect(restored.connected).toBe(true)
    expect(restored.peerId).toBe(dapp.clientId)
    const request = await next(restored, 'call_request')
    expect(request.method).toBe('while_away')
    await restored.approveRequest({ id: request.id, result: 'back' })
    await expect(pending).resolves.toBe('back')
    dapp.close()
    restored.close()
  })

  test('behavior: file storage (async) restores after `ready`', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairlink-client-'))
    const path = join(dir, 'session.json')
    const { dapp, wallet } = await pair(bridge.url, { wallet: { storage: createFileStorage(path) } })
    await waitFor(() => createFileStorage(path).get('walletconnect'), { message: 'the session written' })
    wallet.close()
    const restored = createClient({ bridge: bridge.url, storage: createFileStorage(path) })
    await restored.ready
    expect(restored.connected).toBe(true)
    expect(restored.accounts).toEqual([account])
    const disconnected = next(restored, 'disconnect')
    await dapp.killSession()
    expect(await disconnected).toEqual({ message: 'Session disconnected' })
    await waitFor(async () => (await createFileStorage(path).get('walletconnect')) === undefined, {
      message: 'the session removed',
    })
    await rm(dir, { recursive: true })
  })

  test('behavior: a stored session that is not connected is not restored', () => {
    const storage = createMemoryStorage()
    storage.set(
      'walletconnect',
      JSON.stringify({ connected: false, bridge: bridge.url, key: 'k', clientId: 'c' }),
    )
    const client = createClient({ bridge: bridge.url, storage })
    expect(client.connected).toBe(false)
    expect(client.transportState).toBe('closed')
  })

  test('args: storageKey', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await pair(bridge.url, { dapp: { storage, storageKey: 'mine' } })
    expect(storage.get('mine')).toBeDefined()
    expect(storage.get('walletconnect')).toBeUndefined()
    dapp.close()
    wallet.close()
  })
})

describe('transport', () => {
  test('behavior: both sides reconnect after a bridge restart; what was sent meanwhile arrives', async () => {
    const own = await startBridge()
    const reconnect = { minDelay: 20, maxDelay: 100 }
    const recorder = createRecorder()
    const { dapp, wallet } = await pair(own.url, {
      dapp: { reconnect, WebSocket: recorder.WebSocket },
      wallet: { reconnect },
    })
    const states: string[] = []
    dapp.on('transport', ({ state }) => states.push(state))
    wallet.on(
      'call_request',
      ({ id, method }) => void wallet.approveRequest({ id, result: `${method} done` }),
    )
    await own.stop()
    await waitFor(() => dapp.transportState === 'connecting')
    const pending = dapp.request({ method: 'during_outage' })
    // One more socket attempt failed while the request waited: it was really sent during the outage.
    const sockets = recorder.urls.length
    await waitFor(() => recorder.urls.length > sockets)
    await own.start()
    await expect(pending).resolves.toBe('during_outage done')
    expect(states).toEqual(['connecting', 'open'])
    expect(dapp.stats.reconnects).toBe(1)
    await waitFor(() => wallet.stats.reconnects === 1)
    dapp.close()
    wallet.close()
    await own.stop()
  })

  test('behavior: a kill sent while the bridge is down still reaches the peer when the bridge is back', async () => {
    const own = await startBridge()
    const reconnect = { minDelay: 20, maxDelay: 100 }
    const recorder = createRecorder()
    const { dapp, wallet } = await pair(own.url, {
      dapp: { reconnect, WebSocket: recorder.WebSocket },
      wallet: { reconnect },
    })
    const disconnected = next(wallet, 'disconnect')
    await own.stop()
    await waitFor(() => dapp.transportState === 'connecting')
    await dapp.killSession()
    expect(dapp.connected).toBe(false)
    const sockets = recorder.urls.length
    await waitFor(() => recorder.urls.length > sockets)
    await own.start()
    await expect(disconnected).resolves.toEqual({ message: 'Session disconnected' })
    await waitFor(() => dapp.transportState === 'closed')
    wallet.close()
    await own.stop()
  })

  test('args: ack', async () => {
    const own = await startBridge()
    const recorder = createRecorder()
    const { dapp, wallet } = await pair(own.url, { dapp: { ack: true, WebSocket: recorder.WebSocket } })
    await waitFor(() => recorder.sent.some((f) => JSON.parse(f.raw).type === 'ack'))
    expect(recorder.sent.find((f) => JSON.parse(f.raw).type === 'ack')?.raw).toBe(
      JSON.stringify({ topic: dapp.clientId, type: 'ack', payload: '', silent: true }),
    )
    dapp.close()
    wallet.close()
    await own.stop()
  })
})

test('behavior: the clientId is made on first use', async () => {
  const dapp = createDapp({ bridge: bridge.url, storage: false })
  expect(dapp.clientId).toBe('')
  await dapp.createSession()
  expect(dapp.clientId).toMatch(/^[0-9a-f-]{36}$/)
  dapp.close()
})

describe('extend', () => {
  test('default: merges the members, keeps the state live and shared', async () => {
    const base = createClient({ bridge: bridge.url, storage: false })
    const dapp = base.extend(dappActions)
    expect(Object.keys(dapp)).toEqual(
      expect.arrayContaining(['connect', 'request', 'signTypedData', 'extend']),
    )
    expect('approveSession' in dapp).toBe(false)
    expect('connect' in base).toBe(false)
    // Getters stay getters: the state read through the extended client follows the session.
    expect(dapp.clientId).toBe('')
    await dapp.createSession()
    expect(dapp.clientId).not.toBe('')
    expect(base.clientId).toBe(dapp.clientId)
    expect(base.uri).toBe(dapp.uri)
    // The stand-alone actions take the bare and the extended client alike.
    await expect(request(base, { method: 'eth_accounts' })).rejects.toThrowError(
      'Session currently disconnected',
    )
    dapp.close()
  })

  test('behavior: chainable; each extension sees the client built so far', () => {
    const client = createClient({ bridge: bridge.url, storage: false })
      .extend(dappActions)
      .extend((client) => ({ hasConnect: typeof client.connect === 'function' }))
      .extend(walletActions)
    expect(client.hasConnect).toBe(true)
    expect(typeof client.approveSession).toBe('function')
    expect(typeof client.connect).toBe('function')
  })

  test('behavior: an extension cannot replace a base member', () => {
    const client = createClient({ bridge: bridge.url, storage: false })
    const extended = client.extend(() => ({ connected: 'yes', mine: 1 }) as never as { mine: number })
    expect(extended.connected).toBe(false)
    expect(extended.mine).toBe(1)
  })
})

describe('async errors: a bad state rejects, so `.catch()` sees it', () => {
  const caught = (run: () => Promise<unknown>) => {
    let result: Promise<unknown> | undefined
    // A synchronous throw would escape here and fail the test.
    expect(() => {
      result = run().catch((error: unknown) => (error as Error).message)
    }).not.toThrow()
    return result
  }

  test('dapp actions while disconnected', async () => {
    const dapp = createDapp({ bridge: bridge.url, storage: false })
    const disconnected = 'Session currently disconnected'
    expect(await caught(() => dapp.signPersonalMessage(['hi', account]))).toBe(disconnected)
    expect(await caught(() => dapp.signTypedData([account, '{}']))).toBe(disconnected)
    expect(await caught(() => dapp.sendTransaction({ from: account }))).toBe(disconnected)
    expect(await caught(() => dapp.request({ method: 'x' }))).toBe(disconnected)
    expect(await caught(() => dapp.connect())).toBe('QRCode Modal not provided')
  })

  test('wallet actions without a session', async () => {
    const wallet = createWallet({ bridge: bridge.url, storage: false })
    expect(await caught(() => wallet.approveRequest({ id: 1, result: 1 }))).toBe(
      'Session currently disconnected',
    )
    expect(await caught(() => wallet.rejectRequest({ id: 1, error: {} }))).toBe(
      'Session currently disconnected',
    )
    expect(await caught(() => wallet.updateSession({ chainId: 1, accounts: [] }))).toBe(
      'Session currently disconnected',
    )
    expect(await caught(() => wallet.approveSession({ chainId: 1, accounts: [] }))).toBe(
      'No session request to answer',
    )
    expect(await caught(() => wallet.approveRequest({ id: 1 } as never))).toBe(
      'JSON-RPC success response must include "result" field',
    )
  })
})
