// @vitest-environment happy-dom
import { createClient, type WalletClient, walletActions } from '@pairlink/client'
import { afterAll, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge } from '../test/bridge.js'
import { createProvider, type Provider, type ProviderEvents } from './createProvider.js'

// Two tabs of one dapp: two providers whose clients keep the session in the page's one `localStorage`
// (happy-dom's), with Node's `BroadcastChannel` between them as between a browser's tabs.

const account = '0xf39fd6e51aad88f6f4ce6ab8827279cffb92266'
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
