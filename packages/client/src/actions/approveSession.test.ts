import { SessionError } from '@pairlink/protocol'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Relay, startRelay } from '../../test/relay.js'
import {
  account,
  createTestModal,
  dappMeta,
  decodeFrames,
  keyOf,
  next,
  pair,
  until,
  walletMeta,
} from '../../test/utils.js'
import { createClient } from '../createClient.js'
import { createMemoryStorage } from '../storage.js'

let relay: Relay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.stop())

test('default: wire-identical approval, v1 frame order', async () => {
  const modal = createTestModal()
  const dapp = createClient({ bridge: relay.url, clientMeta: dappMeta, modal, storage: false })
  const connecting = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  const start = relay.frames.length
  const storage = createMemoryStorage()
  const wallet = createClient({ uri, clientMeta: walletMeta, storage })
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
  await until(() => relay.frames.length >= start + 3)
  const frames = await decodeFrames(relay.frames.slice(start), keyOf(uri))
  const socket = frames.find((f) => f.type === 'sub' && f.topic === uri.slice(3, 39))?.socket
  const walletFrames = frames.filter((f) => f.socket === socket)
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
  const dapp = createClient({ bridge: relay.url, modal, storage: false })
  void dapp.connect()
  const uri = await modal.opened
  const wallet = createClient({ uri, storage: false })
  await next(wallet, 'session_request')
  const start = relay.frames.length
  await wallet.approveSession({ chainId: 5, accounts: [account], networkId: 5, rpcUrl: 'http://rpc.example' })
  await until(() => relay.frames.length > start)
  const [approval] = await decodeFrames(relay.frames.slice(start), keyOf(uri))
  expect(approval?.payload.result).toMatchObject({ chainId: 5, networkId: 5, rpcUrl: 'http://rpc.example' })
  dapp.close()
  wallet.close()
})

test('error: already connected', async () => {
  const { dapp, wallet } = await pair(relay.url)
  expect(() => wallet.approveSession({ chainId: 1, accounts: [] })).toThrowError(
    new SessionError('Session currently connected'),
  )
  expect(() => wallet.rejectSession()).toThrowError(new SessionError('Session currently connected'))
  dapp.close()
  wallet.close()
})

test('error: no session request yet', async () => {
  const wallet = createClient({
    uri: `wc:${'a'.repeat(36)}@1?bridge=${encodeURIComponent(relay.url)}&key=${'0'.repeat(64)}`,
    storage: false,
  })
  expect(() => wallet.approveSession({ chainId: 1, accounts: [] })).toThrowError(
    'No session request to answer',
  )
  wallet.close()
})
