// @vitest-environment happy-dom
import { createClient, createMemoryStorage, type WalletClient, walletActions } from '@pairlink/client'
import {
  approve,
  createSignClient,
  emit,
  getSessions,
  pair,
  type SignClient,
  update,
} from '@pairlink/client/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge } from '../test/bridge.js'
import { createProvider, type Provider, type ProviderEvents } from './createProvider.js'

// Two tabs of one dapp: two providers whose clients keep the session in the page's one `localStorage`
// (happy-dom's), with Node's `BroadcastChannel` between them as between a browser's tabs.

const account = '0xf39fd6e51aad88f6f4ce6ab8827279cffb92266'
const metadata = { name: 'Wallet', description: 'wallet', url: 'https://wallet.test', icons: [] }
let bridge: Awaited<ReturnType<typeof startBridge>>
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

const nextEvent = <event extends keyof ProviderEvents>(provider: Provider, event: event) =>
  new Promise<ProviderEvents[event]>((resolve) => {
    const listener = (payload: ProviderEvents[event]) => {
      provider.removeListener(event, listener)
      resolve(payload)
    }
    provider.on(event, listener)
  })

test('behavior: tabs share one session: connect, chain and accounts, and Disconnect in one tab reach the other', async () => {
  localStorage.clear()
  let wallet: WalletClient | undefined
  const modal = {
    // The person scans tab A's QR code with our client in the wallet role.
    open(uri: string) {
      const client = createClient({ uri, storage: false, WebSocket }).extend(walletActions)
      client.on('session_request', () => client.approveSession({ chainId: 1, accounts: [account] }))
      wallet = client
    },
    close() {},
  }
  // No node: nothing here reads the chain, and polls that fail only emit `error`.
  const tab = () =>
    createProvider({ bridge: bridge.url, modal, clientParameters: { WebSocket }, pollingInterval: 60_000 })
  const [tabA, tabB] = [tab(), tab()]
  for (const provider of [tabA, tabB]) provider.on('error', () => {})

  const connected = nextEvent(tabB, 'connect')
  await expect(tabA.enable()).resolves.toEqual([account])
  expect(await connected).toEqual({ chainId: '0x1' })
  await expect(tabB.request({ method: 'eth_accounts' })).resolves.toEqual([account])

  const chain = nextEvent(tabB, 'chainChanged')
  const accounts = nextEvent(tabB, 'accountsChanged')
  const other = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  await wallet?.updateSession({ chainId: 5, accounts: [other] })
  expect(await chain).toBe('0x5')
  expect(await accounts).toEqual([other])

  const disconnected = nextEvent(tabB, 'disconnect')
  const emptied = nextEvent(tabB, 'accountsChanged')
  await tabA.disconnect()
  const error = await disconnected
  expect(error.code).toBe(4900)
  expect(error.data).toEqual({ reason: 'Session Disconnected' })
  expect(await emptied).toEqual([])
  expect(tabB.connected).toBe(false)
  await expect(tabB.request({ method: 'personal_sign', params: ['0x00', other] })).rejects.toMatchObject({
    code: 4900,
  })
  await tabB.client.killSession()
})

const namespaces = (chains: string[], address = account) => ({
  eip155: {
    chains,
    accounts: chains.map((chain) => `${chain}:${address}`),
    methods: ['personal_sign', 'eth_sendTransaction'],
    events: ['chainChanged', 'accountsChanged'],
  },
})

/** A modal whose QR code the person scans with our v2 client in the wallet role, which approves eip155:1. */
function scanningModal() {
  const modal = {
    wallet: undefined as SignClient | undefined,
    open(uri: string) {
      const relayUrl = bridge.url.replace(/^http/, 'ws')
      const client = createSignClient({ relayUrl, metadata, storage: createMemoryStorage(), WebSocket })
      client.on(
        'session_proposal',
        ({ id }) => void approve(client, { id, namespaces: namespaces(['eip155:1']) }),
      )
      void pair(client, { uri })
      modal.wallet = client
    },
    close() {},
  }
  return modal
}

/** A tab of the dapp over v2: a provider on the page's `localStorage`, shared with the other tabs. */
function v2Tab(modal: { open(uri: string): void; close(): void }) {
  const provider = createProvider({
    version: 2,
    relayUrl: bridge.url.replace(/^http/, 'ws'),
    modal,
    clientParameters: { WebSocket },
    pollingInterval: 60_000,
  })
  provider.on('error', () => {})
  return provider
}

test('behavior: over v2 too: connect in one tab reaches the other (its v2 code loads for it), then the wallet’s switch, then Disconnect', async () => {
  localStorage.clear()
  const other = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  const scan = scanningModal()
  const tab = () => v2Tab(scan)
  const [tabA, tabB] = [tab(), tab()]

  const connected = nextEvent(tabB, 'connect')
  await expect(tabA.enable()).resolves.toEqual([account])
  expect(await connected).toEqual({ chainId: '0x1' })
  await expect(tabB.request({ method: 'eth_accounts' })).resolves.toEqual([account])

  const signer = scan.wallet as SignClient
  await waitFor(() => getSessions(signer)[0]?.acknowledged, { message: 'wallet acknowledged' })
  const { topic } = getSessions(signer)[0] as { topic: string }
  const chain = nextEvent(tabB, 'chainChanged')
  await update(signer, { topic, namespaces: namespaces(['eip155:1', 'eip155:5']) })
  await emit(signer, { topic, chainId: 'eip155:5', event: { name: 'chainChanged', data: 5 } })
  expect(await chain).toBe('0x5')
  const accounts = nextEvent(tabB, 'accountsChanged')
  await update(signer, { topic, namespaces: namespaces(['eip155:1', 'eip155:5'], other) })
  await emit(signer, { topic, chainId: 'eip155:5', event: { name: 'accountsChanged', data: [other] } })
  expect(await accounts).toEqual([other])

  const disconnected = nextEvent(tabB, 'disconnect')
  const heard = new Promise((resolve) => signer.once('session_delete', resolve))
  await tabA.disconnect()
  const error = await disconnected
  expect(error.code).toBe(4900)
  expect(error.data).toEqual({ reason: 'Session Disconnected' })
  expect(tabB.connected).toBe(false)
  await heard
  expect(getSessions(signer)).toEqual([])
  await signer.close()
  for (const provider of [tabA, tabB]) await (provider.client as { close?: () => Promise<void> }).close?.()
})

test('behavior: over v2, a tab waiting in its own modal takes the session another tab connected: its modal closes, enable() resolves', async () => {
  localStorage.clear()
  let closes = 0
  let shown!: () => void
  const opened = new Promise<void>((resolve) => {
    shown = resolve
  })
  // Nobody scans tab B's code.
  const tabB = v2Tab({ open: () => shown(), close: () => void closes++ })
  const waiting = tabB.enable()
  await opened
  const scan = scanningModal()
  const tabA = v2Tab(scan)
  await expect(tabA.enable()).resolves.toEqual([account])
  await expect(waiting).resolves.toEqual([account])
  expect(closes).toBeGreaterThan(0)
  await tabA.disconnect()
  await scan.wallet?.close()
  for (const provider of [tabA, tabB]) await (provider.client as { close?: () => Promise<void> }).close?.()
})
