import { createTopic, encrypt, formatSocketMessage, formatUri, generateKey } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { createRecorder } from '../test/recorder.js'
import { createWallet, keyOf, pair } from '../test/utils.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

const frame = (topic: string, payload: string) =>
  formatSocketMessage({ topic, type: 'pub', payload, silent: true })

/** Publishes raw frames through the bridge from a socket of the test's own, as a peer would. */
async function publish(url: string, ...frames: string[]) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  for (const raw of frames) ws.send(raw)
  ws.close()
}

/** A pair whose dapp socket is recorded: garbage the real bridge would never relay is fed there. */
async function recordedPair() {
  const recorder = createRecorder()
  return { recorder, ...(await pair(bridge.url, { dapp: { WebSocket: recorder.WebSocket } })) }
}

test('behavior: garbage frames are dropped and counted, never thrown', async () => {
  const { dapp, wallet, recorder } = await recordedPair()
  const before = dapp.stats.dropped
  recorder.inject('not json at all')
  recorder.inject('{"topic":1}')
  recorder.inject(frame(dapp.clientId, 'not an envelope'))
  recorder.inject(frame(dapp.clientId, JSON.stringify({ data: 'zz', hmac: '00', iv: '11' })))
  await waitFor(() => dapp.stats.dropped === before + 4)
  expect(dapp.connected).toBe(true)
  dapp.close()
  wallet.close()
})

test('behavior: a tampered envelope is dropped and counted', async () => {
  const { dapp, wallet, uri, recorder } = await recordedPair()
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const envelope = await encrypt({ id: 1, jsonrpc: '2.0', method: 'evil', params: [] }, keyOf(uri))
  const flipped = { ...envelope, data: `${envelope.data[0] === 'a' ? 'b' : 'a'}${envelope.data.slice(1)}` }
  const before = dapp.stats.dropped
  recorder.inject(frame(dapp.clientId, JSON.stringify(flipped)))
  // Encrypted with another key: same outcome, same counter.
  recorder.inject(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 2, jsonrpc: '2.0', method: 'x', params: [] }, generateKey())),
    ),
  )
  // Authentic but not JSON-RPC.
  recorder.inject(frame(dapp.clientId, JSON.stringify(await encrypt({ hello: 'world' }, keyOf(uri)))))
  await waitFor(() => dapp.stats.dropped === before + 3)
  // The genuine one still goes through.
  recorder.inject(frame(dapp.clientId, JSON.stringify(envelope)))
  await waitFor(() => calls.length === 1)
  dapp.close()
  wallet.close()
})

test('behavior: frames for other topics are ignored', async () => {
  const { dapp, wallet, uri, recorder } = await recordedPair()
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const before = dapp.stats.ignored
  recorder.inject(
    frame(
      createTopic(),
      JSON.stringify(await encrypt({ id: 1, jsonrpc: '2.0', method: 'x', params: [] }, keyOf(uri))),
    ),
  )
  await waitFor(() => dapp.stats.ignored > before)
  // Marker: a genuine request on the dapp's own topic, fed after it; once it arrived, the other would have too.
  recorder.inject(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 2, jsonrpc: '2.0', method: 'marker', params: [] }, keyOf(uri))),
    ),
  )
  await waitFor(() => calls.length > 0)
  expect(calls).toEqual([{ id: 2, jsonrpc: '2.0', method: 'marker', params: [] }])
  dapp.close()
  wallet.close()
})

test('behavior: a response nobody waits for is ignored (v1 made it a call_request)', async () => {
  const { dapp, wallet, uri, recorder } = await recordedPair()
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const before = dapp.stats.ignored
  recorder.inject(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 99, jsonrpc: '2.0', result: 'late' }, keyOf(uri))),
    ),
  )
  await waitFor(() => dapp.stats.ignored > before)
  // Marker, as above: a request fed after the stray response is the first and only call_request.
  recorder.inject(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 3, jsonrpc: '2.0', method: 'marker', params: [] }, keyOf(uri))),
    ),
  )
  await waitFor(() => calls.length > 0)
  expect(calls).toEqual([{ id: 3, jsonrpc: '2.0', method: 'marker', params: [] }])
  dapp.close()
  wallet.close()
})

test('behavior: the wallet resubscribes its handshake topic after a reconnect while the request is pending', async () => {
  const own = await startBridge()
  const topic = createTopic()
  const key = generateKey()
  const recorder = createRecorder()
  const wallet = createWallet({
    uri: formatUri({ topic, bridge: own.url, key }),
    storage: false,
    reconnect: { minDelay: 10, maxDelay: 20 },
    WebSocket: recorder.WebSocket,
  })
  const subscriptions = () => recorder.sent.filter((f) => f.raw.includes(topic) && f.raw.includes('"sub"'))
  await waitFor(() => subscriptions().length === 1)
  await own.stop()
  await own.start()
  await waitFor(() => subscriptions().length === 2)
  const requests: unknown[] = []
  wallet.on('session_request', (request) => requests.push(request))
  // A dapp publishes its request after the wallet came back: it still arrives.
  const peerId = createTopic()
  const request = {
    id: 1,
    jsonrpc: '2.0',
    method: 'wc_sessionRequest',
    params: [{ peerId, peerMeta: null, chainId: 1 }],
  }
  await publish(own.url, frame(topic, JSON.stringify(await encrypt(request, key))))
  await waitFor(() => requests.length === 1)
  expect(requests).toEqual([{ id: 1, peerId, peerMeta: null, chainId: 1 }])
  // A replay of the same request is ignored: counted as such, and no second session_request.
  const ignored = wallet.stats.ignored
  await publish(own.url, frame(topic, JSON.stringify(await encrypt(request, key))))
  await waitFor(() => wallet.stats.ignored > ignored)
  expect(requests).toHaveLength(1)
  wallet.close()
  await own.stop()
})
