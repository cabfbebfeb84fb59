import { RequestTimeoutError } from '@pairlink/client'
import type { InjectedWallet } from '@pairlink/modal/injected'
import { RpcError, V1_ERRORS } from '@pairlink/protocol'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { BROWSER_WALLET_KEY } from './browserWalletStore.js'
import { BROWSER_WALLET_ENDED, createInjectedClient } from './injectedClient.js'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

/** A browser wallet at the client's seam: answers from `answers`, records what it was asked, emits on demand. */
function fakeWallet(answers: Record<string, (params: unknown) => unknown>) {
  const asked: { method: string; params?: unknown }[] = []
  const listeners = new Map<string, (payload: never) => void>()
  const wallet: InjectedWallet = {
    info: { uuid: 'u', name: 'Test Wallet', icon: 'data:image/svg+xml,x', rdns: 'org.test' },
    provider: {
      async request(args) {
        asked.push(args)
        const answer = answers[args.method]
        if (!answer) throw { code: 4200, message: `unsupported ${args.method}` }
        return answer(args.params)
      },
      on: (event, listener) => listeners.set(event, listener),
    },
  }
  const emit = (event: string, payload: unknown) => (listeners.get(event) as (p: unknown) => void)(payload)
  return { wallet, asked, emit }
}

const connected = {
  eth_accounts: () => [ALICE],
  eth_requestAccounts: () => [ALICE],
  eth_chainId: () => '0x7a69',
}

let items: Record<string, string>
beforeEach(() => {
  items = {}
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items[key] ?? null,
    setItem: (key: string, value: string) => {
      items[key] = value
    },
    removeItem: (key: string) => {
      delete items[key]
    },
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('createInjectedClient', () => {
  test('behavior: connect asks the wallet for accounts, emits connect with its name and icon, and is remembered', async () => {
    const { wallet, asked } = fakeWallet(connected)
    const client = createInjectedClient(wallet)
    await client.ready
    expect(client.connected).toBe(false)
    const onConnect = vi.fn()
    client.on('connect', onConnect)
    // Two calls (the click, then the screen that follows it) share one request.
    const [first, second] = await Promise.all([client.connect(), client.connect()])
    expect(first).toEqual({
      accounts: [ALICE],
      chainId: 31337,
      peerId: 'u',
      peerMeta: { name: 'Test Wallet', description: '', url: '', icons: ['data:image/svg+xml,x'] },
    })
    expect(second).toBe(first)
    expect(asked.filter(({ method }) => method === 'eth_requestAccounts')).toHaveLength(1)
    expect(onConnect).toHaveBeenCalledWith(first)
    expect(client).toMatchObject({
      connected: true,
      accounts: [ALICE],
      chainId: 31337,
      transportState: 'open',
    })
    expect(items[BROWSER_WALLET_KEY]).toBe('org.test')
  })

  test('behavior: the stored wallet is restored from eth_accounts, without asking for accounts', async () => {
    items[BROWSER_WALLET_KEY] = 'org.test'
    const { wallet, asked } = fakeWallet(connected)
    const client = createInjectedClient(wallet)
    await client.ready
    expect(client).toMatchObject({ connected: true, accounts: [ALICE], chainId: 31337 })
    expect(asked.map(({ method }) => method)).toEqual(['eth_accounts', 'eth_chainId'])
  })

  test('behavior: a stored wallet that no longer shares an account is forgotten; another wallet is not asked', async () => {
    items[BROWSER_WALLET_KEY] = 'org.test'
    const revoked = createInjectedClient(fakeWallet({ ...connected, eth_accounts: () => [] }).wallet)
    await revoked.ready
    expect(revoked.connected).toBe(false)
    expect(items[BROWSER_WALLET_KEY]).toBeUndefined()

    items[BROWSER_WALLET_KEY] = 'org.other'
    const { wallet, asked } = fakeWallet(connected)
    await createInjectedClient(wallet).ready
    expect(asked).toEqual([])
  })

  test('behavior: the wallet’s account and chain changes are session updates; no account left ends the session', async () => {
    const { wallet, emit } = fakeWallet(connected)
    const client = createInjectedClient(wallet)
    await client.connect()
    const updates = vi.fn()
    const ends = vi.fn()
    client.on('session_update', updates)
    client.on('disconnect', ends)
    emit('accountsChanged', [BOB])
    emit('chainChanged', '0xaa36a7')
    emit('chainChanged', '0xaa36a7')
    expect(updates.mock.calls).toEqual([
      [{ accounts: [BOB], chainId: 31337 }],
      [{ accounts: [BOB], chainId: 11155111 }],
    ])
    emit('accountsChanged', [])
    expect(ends).toHaveBeenCalledWith({ message: BROWSER_WALLET_ENDED })
    expect(client.connected).toBe(false)
    expect(items[BROWSER_WALLET_KEY]).toBeUndefined()
  })

  test('behavior: killSession gives the site’s access back (EIP-2255) and ends the session here', async () => {
    const { wallet, asked } = fakeWallet({ ...connected, wallet_revokePermissions: () => null })
    const client = createInjectedClient(wallet)
    await client.connect()
    const ends = vi.fn()
    client.on('disconnect', ends)
    await client.killSession()
    expect(asked.at(-1)).toEqual({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
    expect(ends).toHaveBeenCalledWith({ message: V1_ERRORS.SESSION_DISCONNECTED_LOCAL })
    expect(client.connected).toBe(false)
  })

  test('behavior: Disconnect in another tab (the stored wallet removed or replaced) ends the session here', async () => {
    const heard: ((event: { key: string; newValue: string | null }) => void)[] = []
    vi.stubGlobal('addEventListener', (type: string, listener: (typeof heard)[number]) => {
      if (type === 'storage') heard.push(listener)
    })
    const client = createInjectedClient(fakeWallet(connected).wallet)
    await client.connect()
    const ends = vi.fn()
    client.on('disconnect', ends)
    for (const listener of heard) listener({ key: BROWSER_WALLET_KEY, newValue: 'org.test' })
    expect(client.connected).toBe(true)
    for (const listener of heard) listener({ key: BROWSER_WALLET_KEY, newValue: null })
    expect(ends).toHaveBeenCalledWith({ message: V1_ERRORS.SESSION_DISCONNECTED_LOCAL })
    expect(client.connected).toBe(false)
  })

  test('error: the wallet’s errors come back as RpcError with their EIP-1193 code; a refusal to connect is 4001', async () => {
    const refusing = createInjectedClient(
      fakeWallet({
        eth_requestAccounts: () => {
          throw { code: 4001, message: 'User rejected the request.' }
        },
      }).wallet,
    )
    const refusal = await refusing.connect().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(RpcError)
    expect(refusal).toMatchObject({
      code: 4001,
      message: expect.stringContaining('User rejected the request.'),
    })
    expect(refusing.connected).toBe(false)

    const client = createInjectedClient(fakeWallet(connected).wallet)
    await client.connect()
    await expect(client.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: 4200 })
  })

  test('error: a wallet that does not answer within the time-out fails with RequestTimeoutError', async () => {
    const client = createInjectedClient(
      fakeWallet({ ...connected, personal_sign: () => new Promise(() => {}) }).wallet,
    )
    await client.connect()
    await expect(
      client.request({ method: 'personal_sign', params: ['0x00', ALICE] }, { timeout: 20 }),
    ).rejects.toBeInstanceOf(RequestTimeoutError)
  })
})
