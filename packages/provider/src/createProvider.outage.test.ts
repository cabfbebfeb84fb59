import { createMemoryStorage, type SessionStorage } from '@pairlink/client'
import { approve, createSignClient, getSessions, pair, type SignClient } from '@pairlink/client/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge } from '../test/bridge.js'
import { createProvider } from './createProvider.js'
import type { V2Client } from './v2Client.js'

// Disconnect over v2 while the relay is down: the real relay of `@pairlink/bridge`, stopped and started again on its
// port; our v2 client in the wallet role.
let bridge: Awaited<ReturnType<typeof startBridge>>
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const metadata = { name: 'Wallet', description: 'wallet', url: 'https://wallet.test', icons: [] }

/** A page of the dapp on `storage`; its modal's code is scanned by our wallet, which approves eip155:1. */
function page(storage: SessionStorage, scanned: (wallet: SignClient) => void = () => {}) {
  const relayUrl = bridge.url.replace(/^http/, 'ws')
  const modal = {
    open(uri: string) {
      const wallet = createSignClient({
        relayUrl,
        metadata,
        storage: createMemoryStorage(),
        WebSocket,
        reconnect: { minDelay: 20, maxDelay: 200 },
      })
      wallet.on('session_proposal', ({ id }) => {
        const namespaces = {
          eip155: { chains: ['eip155:1'], accounts: [`eip155:1:${account}`], methods: [], events: [] },
        }
        void approve(wallet, { id, namespaces })
      })
      void pair(wallet, { uri })
      scanned(wallet)
    },
    close() {},
  }
  const provider = createProvider({
    version: 2,
    relayUrl,
    modal,
    clientParameters: { WebSocket, storage, reconnect: { minDelay: 20, maxDelay: 200 } },
    pollingInterval: 60_000,
  })
  provider.on('error', () => {})
  return provider
}

test('behavior: Disconnect while the relay is down ends the session at once and after a reload; the wallet hears it when the relay is back', async () => {
  const storage = createMemoryStorage()
  let wallet: SignClient | undefined
  const first = page(storage, (scanned) => {
    wallet = scanned
  })
  await expect(first.enable()).resolves.toEqual([account])
  const signer = wallet as SignClient
  await waitFor(() => getSessions(signer)[0]?.acknowledged, { message: 'wallet acknowledged' })

  await bridge.stop()
  await waitFor(() => signer.transportState === 'connecting', { message: 'relay gone' })
  // Resolves without the relay (the test would time out waiting for it otherwise).
  await first.disconnect()
  expect(first.connected).toBe(false)
  await (first.client as V2Client).close()

  // The reload: not connected; its v2 code loads all the same, for the delete still to send.
  const reloaded = page(storage)
  await reloaded.client.ready
  expect(reloaded.connected).toBe(false)
  const heard = new Promise((resolve) => signer.once('session_delete', resolve))
  await bridge.start()
  await heard
  expect(getSessions(signer)).toEqual([])
  expect(reloaded.connected).toBe(false)
  await (reloaded.client as V2Client).close()
  await signer.close()
})
