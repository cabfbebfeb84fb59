import {
  ModalClosedError,
  ModalNotProvidedError,
  SessionError,
  SessionRejectedError,
} from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import {
  account,
  createDapp,
  createTestModal,
  createWallet,
  dappMeta,
  next,
  pair,
  walletMeta,
} from '../../test/utils.js'
import { createV1, v1Event } from '../../test/v1.js'
import { createMemoryStorage } from '../storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default', async () => {
  const modal = createTestModal()
  const dapp = createDapp({
    bridge: bridge.url,
    clientMeta: dappMeta,
    modal,
    modalOptions: { mobileLinks: [] },
    storage: false,
  })
  const connecting = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  expect(uri).toBe(dapp.uri)
  expect(modal.options).toEqual({ mobileLinks: [] })
  const wallet = createWallet({ uri, clientMeta: walletMeta, storage: false })
  await next(wallet, 'session_request')
  void wallet.approveSession({ chainId: 1, accounts: [account] })
  await expect(connecting).resolves.toEqual({
    peerId: wallet.clientId,
    peerMeta: walletMeta,
    chainId: 1,
    accounts: [account],
  })
  // The modal closes on approval (v1); the bridge was reachable all along.
  expect(modal.closed).toBe(1)
  expect(modal.statuses).toEqual([])
  expect(dapp.uri).toBeUndefined()
  dapp.close()
  wallet.close()
})

test('error: no modal', async () => {
  const dapp = createDapp({ bridge: bridge.url, storage: false })
  await expect(dapp.connect()).rejects.toThrowError(new ModalNotProvidedError('QRCode Modal not provided'))
})

test('error: the person closes the modal', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  const closed = next(dapp, 'modal_closed')
  const connecting = dapp.connect()
  await modal.opened
  modal.userClose()
  await expect(connecting).rejects.toThrowError(new ModalClosedError('User close QRCode Modal'))
  expect(await closed).toEqual({})
  dapp.close()
})

test('behavior: closing means no — the published v1 wallet (1.8.0) approving the closed request has its session killed; nothing connects or is stored', async () => {
  const modal = createTestModal()
  const storage = createMemoryStorage()
  const dapp = createDapp({ bridge: bridge.url, modal, storage })
  let connected = 0
  dapp.on('connect', () => void connected++)
  const connecting = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  modal.userClose()
  await expect(connecting).rejects.toThrowError(new ModalClosedError('User close QRCode Modal'))
  const wallet = createV1({ uri, clientMeta: walletMeta })
  try {
    await v1Event(wallet, 'session_request')
    const killed = v1Event(wallet, 'disconnect')
    wallet.approveSession({ chainId: 1, accounts: [account] })
    expect((await killed).payload.params[0]).toEqual({ message: 'Session disconnected' })
    expect(wallet.connected).toBe(false)
    expect(dapp.connected).toBe(false)
    expect(connected).toBe(0)
    expect((await storage.get('walletconnect')) ?? null).toBeNull()
    // The next connect shows a fresh request, not the one the person said no to.
    const again = dapp.connect({ chainId: 1 }).catch(() => {})
    await waitFor(() => dapp.uri !== undefined && dapp.uri !== uri, { message: 'a fresh URI' })
    modal.userClose()
    await again
  } finally {
    wallet.transportClose()
    dapp.close()
  }
})

test('error: the wallet rejects (the promise settles, unlike v1)', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  const connecting = dapp.connect()
  const wallet = createWallet({ uri: await modal.opened, storage: false })
  await next(wallet, 'session_request')
  void wallet.rejectSession({ message: 'No thanks' })
  await expect(connecting).rejects.toThrowError(new SessionRejectedError('No thanks'))
  expect(dapp.connected).toBe(false)
  expect(modal.closed).toBe(1)
})

test('error: the wallet rejects without a message', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  const connecting = dapp.connect()
  const disconnected = next(dapp, 'disconnect')
  const wallet = createWallet({ uri: await modal.opened, storage: false })
  await next(wallet, 'session_request')
  void wallet.rejectSession()
  await expect(connecting).rejects.toThrowError(new SessionRejectedError('Session Rejected'))
  expect(await disconnected).toEqual({ message: 'Session Rejected' })
})

test('error: already connected', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(dapp.connect()).rejects.toThrowError(new SessionError('Session currently connected'))
  dapp.close()
  wallet.close()
})

test('behavior: connecting again while pending shows the same URI', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  void dapp.connect().catch(() => {})
  const first = await modal.opened
  expect(await dapp.createSession()).toBe(first)
  dapp.close()
})

test('behavior: an unreachable bridge is told to the modal while the client retries; cleared when it opens', async () => {
  const own = await startBridge()
  await own.stop()
  const modal = createTestModal()
  const dapp = createDapp({
    bridge: own.url,
    clientMeta: dappMeta,
    modal,
    storage: false,
    reconnect: { minDelay: 20, maxDelay: 100 },
  })
  const connecting = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  await waitFor(() => modal.statuses.includes('unreachable'), { message: 'the modal was told' })
  expect(dapp.transportState).toBe('connecting')
  await own.start()
  await waitFor(() => dapp.transportState === 'open')
  expect(modal.statuses).toEqual(['unreachable', 'ready'])
  const wallet = createWallet({ uri, clientMeta: walletMeta, storage: false })
  await next(wallet, 'session_request')
  void wallet.approveSession({ chainId: 1, accounts: [account] })
  await expect(connecting).resolves.toMatchObject({ accounts: [account] })
  dapp.close()
  wallet.close()
  await own.stop()
})
