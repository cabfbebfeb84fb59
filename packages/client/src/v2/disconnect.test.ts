import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createPeers, next } from '../../test/peers.js'
import {
  closeSdkClients,
  createSdkDapp,
  dappMetadata,
  events,
  grant,
  methods,
  startRelay,
  walletMetadata,
} from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import { approve, disconnect, getSessions, pair } from './index.js'
import type { StoredState } from './internal.js'

// A disconnect made while the relay is down, on the real relay stopped and started again on its port.
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, paired, close } = createPeers(() => relay.relayUrl)
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  await close()
  await closeSdkClients()
})
afterAll(() => relay.stop())

const stored = async (storage: SessionStorage) =>
  JSON.parse((await storage.get('pairlink-v2')) as string) as StoredState

test('behavior: our dapp disconnects while the relay is down: gone at once and after a reload; the wallet is told once the relay is back', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, session } = await paired({ dapp: storage })
  await relay.stop()
  await waitFor(() => dapp.transportState === 'connecting', { message: 'dapp socket lost' })
  // Resolves without the relay: the test would time out waiting for it otherwise.
  await disconnect(dapp, { topic: session.topic })
  expect(getSessions(dapp)).toEqual([])
  await dapp.close()
  expect((await stored(storage)).sessions).toEqual({})

  // A reload before the relay is back: no session, and the delete still to send.
  const reloaded = create(dappMetadata, storage)
  await reloaded.ready
  expect(getSessions(reloaded)).toEqual([])
  const deleted = next(wallet, 'session_delete')
  await relay.start()
  expect((await deleted).topic).toBe(session.topic)
  expect(getSessions(wallet)).toEqual([])
  await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
    message: 'outbox emptied',
  })
  expect(getSessions(reloaded)).toEqual([])
})

test('behavior: our wallet disconnects while the relay is down; the published sign-client dapp hears session_delete when it is back', async () => {
  const storage = createMemoryStorage()
  const wallet = create(walletMetadata, storage)
  const dapp = await createSdkDapp(relay.relayUrl)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  const proposal = next(wallet, 'session_proposal')
  await pair(wallet, { uri: uri as string })
  const approved = await approve(wallet, { id: (await proposal).id, namespaces: grant() })
  const session = await approval()
  await approved.acknowledged()

  await relay.stop()
  await waitFor(() => wallet.transportState === 'connecting', { message: 'wallet socket lost' })
  await disconnect(wallet, { topic: session.topic })
  expect(getSessions(wallet)).toEqual([])
  await waitFor(async () => Object.keys((await stored(storage)).sessions).length === 0, {
    message: 'session removed from storage',
  })

  // The same client sends it when its socket is back; the session does not come back on either side.
  const deleted = new Promise<{ topic: string }>((resolve) => dapp.on('session_delete', resolve))
  await relay.start()
  expect((await deleted).topic).toBe(session.topic)
  expect(dapp.session.getAll()).toEqual([])
  expect(getSessions(wallet)).toEqual([])
  await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
    message: 'outbox emptied',
  })
})
