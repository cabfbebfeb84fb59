import { SessionError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import {
  account,
  createDapp,
  createTestModal,
  createWallet,
  dappMeta,
  decodeFrames,
  keyOf,
  next,
  pair,
  walletMeta,
} from '../../test/utils.js'
import { createMemoryStorage } from '../storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default: wire-identical approval, v1 frame order', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, clientMeta: dappMeta, modal, storage: false })
  const connecting = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  const recorder = createRecorder()
  const storage = createMemoryStorage()
  const wallet = createWallet({ uri, clientMeta: walletMeta, storage, WebSocket: recorder.WebSocket })
  const request = await next(wallet, 'session_request')
  expect(request).toEqual({ id: expect.any(Number), peerId: dapp.clientId, peerMeta: dappMeta, chainId: 1 })
  const connected: unknown[] = []
  wallet.on('connect', (payload) => connected.push(payload))
  const sent = wallet.approveSession({ chainId: 1, accounts: [account] })
  // `connect` fires synchronously and the wallet is connected at once, as in v1.
  expect(connected).toEqual([{ peerId: dapp.clientId, peerMeta: dappMeta, chainId: 1, accounts: [account] }])
  expect(wallet.connected).toBe(true)
  await sent
  await connecting
  await waitFor(() => recorder.sent.length >= 3)
  const walletFrames = await decodeFrames(recorder.sent, keyOf(uri))
  expect(walletFrames.map((f) => [f.type, f.topic])).toEqual([
    ['sub', uri.slice(3, 39)],
    ['sub', wallet.clientId],
    ['pub', dapp.clientId],
  ])
  expect(JSON.stringify(walletFrames[2]?.payload)).toBe(
    JSON.stringify({
      id: request.id,
      jsonrpc: '2.0',
      result: {
        approved: true,
        chainId: 1,
        networkId: 0,
        accounts: [account],
        rpcUrl: '',
        peerId: wallet.clientId,
        peerMeta: walletMeta,
      },
    }),
  )
  expect(walletFrames[2]?.silent).toBe(true)
  // The wallet stores the session on approval (reference §4.7).
  expect(JSON.parse(String(storage.get('walletconnect')))).toEqual(wallet.session)
  dapp.close()
  wallet.close()
})

test('args: networkId, rpcUrl', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  // Closed before the wallet connects in full: its rejection is expected and not the subject here.
  void dapp.connect().catch(() => {})
  const uri = await modal.opened
  const recorder = createRecorder()
  const wallet = createWallet({ uri, storage: false, WebSocket: recorder.WebSocket })
  await next(wallet, 'session_request')
  const start = recorder.sent.length
  await wallet.approveSession({ chainId: 5, accounts: [account], networkId: 5, rpcUrl: 'http://rpc.example' })
  await waitFor(() => recorder.sent.length > start)
  const [approval] = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
  expect(approval?.payload.result).toMatchObject({ chainId: 5, networkId: 5, rpcUrl: 'http://rpc.example' })
  dapp.close()
  wallet.close()
})

test('error: already connected', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(wallet.approveSession({ chainId: 1, accounts: [] })).rejects.toThrowError(
    new SessionError('Session currently connected'),
  )
  await expect(wallet.rejectSession()).rejects.toThrowError(new SessionError('Session currently connected'))
  dapp.close()
  wallet.close()
})

test('error: no session request yet', async () => {
  const wallet = createWallet({
    uri: `wc:${'a'.repeat(36)}@1?bridge=${encodeURIComponent(bridge.url)}&key=${'0'.repeat(64)}`,
    storage: false,
  })
  await expect(wallet.approveSession({ chainId: 1, accounts: [] })).rejects.toThrowError(
    'No session request to answer',
  )
  wallet.close()
})
