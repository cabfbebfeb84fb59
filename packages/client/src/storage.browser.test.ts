// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { account, createDapp, next, pair } from '../test/utils.js'
import { createLocalStorage } from './storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

describe('createLocalStorage', () => {
  test('default', () => {
    const storage = createLocalStorage()
    storage.set('k', 'v')
    expect(localStorage.getItem('k')).toBe('v')
    expect(storage.get('k')).toBe('v')
    storage.remove('k')
    expect(localStorage.getItem('k')).toBeNull()
  })

  test('behavior: a throwing storage degrades to not persisting', () => {
    const broken = {
      getItem() {
        throw new Error('SecurityError')
      },
      setItem() {
        throw new Error('QuotaExceededError')
      },
      removeItem() {
        throw new Error('SecurityError')
      },
    } as unknown as Storage
    const storage = createLocalStorage(broken)
    expect(storage.get('k')).toBeUndefined()
    expect(() => storage.set('k', 'v')).not.toThrow()
    expect(() => storage.remove('k')).not.toThrow()
  })
})

describe('localStorage sessions', () => {
  test('behavior: a dapp persists under `walletconnect` in the v1 layout and a reload restores it', async () => {
    localStorage.clear()
    const { dapp, wallet } = await pair(bridge.url, { dapp: { storage: undefined, WebSocket } })
    const stored = JSON.parse(localStorage.getItem('walletconnect') ?? 'null')
    expect(stored).toEqual(dapp.session)
    expect(Object.keys(stored)[0]).toBe('connected')
    dapp.close()

    // The "reload": a new client on the same page restores synchronously, without a scan.
    const reloaded = createDapp({ bridge: bridge.url, WebSocket })
    expect(reloaded.connected).toBe(true)
    expect(reloaded.accounts).toEqual([account])
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'ok' }))
    await expect(reloaded.request({ method: 'custom', params: [] })).resolves.toBe('ok')
    const disconnected = next(wallet, 'disconnect')
    await reloaded.killSession()
    await disconnected
    expect(localStorage.getItem('walletconnect')).toBeNull()
  })

  test('behavior: restores a session object as v1 stored it', async () => {
    localStorage.clear()
    // Stored by @walletconnect/client@1.8.0 (reference §4.7 / the session trace): a v1 dapp's session.
    const { dapp, wallet } = await pair(bridge.url, { dapp: { WebSocket } })
    const v1 = JSON.stringify({
      connected: true,
      accounts: [account],
      chainId: 1,
      bridge: bridge.url,
      key: dapp.session?.key,
      clientId: dapp.clientId,
      clientMeta: { description: 'Dapp', url: 'https://dapp.example', icons: [], name: 'Dapp' },
      peerId: wallet.clientId,
      peerMeta: {
        description: 'Wallet',
        url: 'https://wallet.example',
        icons: ['https://wallet.example/i.png'],
        name: 'Wallet',
      },
      handshakeId: 1795300478693862,
      handshakeTopic: '61d75b95-715f-489c-a259-2f27bd94052c',
    })
    dapp.close()
    localStorage.setItem('walletconnect', v1)
    const restored = createDapp({ bridge: 'http://ignored.example', WebSocket })
    // The stored bridge wins over the option, as in v1.
    expect(restored.bridge).toBe(bridge.url)
    expect(restored.peerMeta?.name).toBe('Wallet')
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 'still here' }))
    await expect(restored.request({ method: 'custom' })).resolves.toBe('still here')
    restored.close()
    wallet.close()
  })
})
