import { SessionError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import { createDapp, dappMeta, decodeFrames, keyOf, next, pair } from '../../test/utils.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default: wire-identical session request, v1 frame order', async () => {
  const recorder = createRecorder()
  const dapp = createDapp({
    bridge: bridge.url,
    clientMeta: dappMeta,
    storage: false,
    WebSocket: recorder.WebSocket,
  })
  const displayed = next(dapp, 'display_uri')
  const uri = await dapp.createSession({ chainId: 1 })
  expect(await displayed).toEqual({ uri })
  expect(uri).toMatch(
    /^wc:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@1\?bridge=http%3A%2F%2F127\.0\.0\.1%3A\d+&key=[0-9a-f]{64}$/,
  )
  await waitFor(() => recorder.sent.length >= 2)
  const [request, sub] = await decodeFrames(recorder.sent, keyOf(uri))
  const topic = uri.slice(3, 39)
  expect(request).toMatchObject({ topic, type: 'pub', silent: true })
  expect(JSON.stringify(request?.payload)).toBe(
    JSON.stringify({
      id: request?.payload.id,
      jsonrpc: '2.0',
      method: 'wc_sessionRequest',
      params: [{ peerId: dapp.clientId, peerMeta: dappMeta, chainId: 1 }],
    }),
  )
  expect(String(request?.payload.id)).toMatch(/^\d{16}$/)
  expect(sub).toMatchObject({ topic: dapp.clientId, type: 'sub', silent: true })
  dapp.close()
})

test('args: no chainId sends null', async () => {
  const recorder = createRecorder()
  const dapp = createDapp({
    bridge: bridge.url,
    clientMeta: null,
    storage: false,
    WebSocket: recorder.WebSocket,
  })
  const uri = await dapp.createSession()
  await waitFor(() => recorder.sent.length >= 1)
  const [request] = await decodeFrames(recorder.sent, keyOf(uri))
  expect(request?.payload.params).toEqual([{ peerId: dapp.clientId, peerMeta: null, chainId: null }])
  dapp.close()
})

test('behavior: a fresh key and topic each session', async () => {
  const dapp = createDapp({ bridge: bridge.url, storage: false })
  const first = await dapp.createSession()
  await dapp.killSession()
  const second = await dapp.createSession()
  expect(keyOf(first)).not.toBe(keyOf(second))
  expect(first.slice(0, 39)).not.toBe(second.slice(0, 39))
  dapp.close()
})

test('error: connected', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(dapp.createSession()).rejects.toThrowError(new SessionError('Session currently connected'))
  dapp.close()
  wallet.close()
})
