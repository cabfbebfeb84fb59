import { createTopic, encrypt, formatSocketMessage, formatUri, generateKey } from '@pairlink/protocol'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { keyOf, pair, sleep, until } from '../test/utils.js'
import { createClient } from './createClient.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

const frame = (topic: string, payload: string) =>
  formatSocketMessage({ topic, type: 'pub', payload, silent: true })

test('behavior: garbage frames are dropped and counted, never thrown', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const before = dapp.stats.dropped
  relay.broadcast('not json at all')
  relay.broadcast('{"topic":1}')
  relay.broadcast(frame(dapp.clientId, 'not an envelope'))
  relay.broadcast(frame(dapp.clientId, JSON.stringify({ data: 'zz', hmac: '00', iv: '11' })))
  await until(() => dapp.stats.dropped === before + 4)
  expect(dapp.connected).toBe(true)
  dapp.close()
  wallet.close()
})

test('behavior: a tampered envelope is dropped and counted', async () => {
  const { dapp, wallet, uri } = await pair(bridge.url)
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const envelope = await encrypt({ id: 1, jsonrpc: '2.0', method: 'evil', params: [] }, keyOf(uri))
  const flipped = { ...envelope, data: `${envelope.data[0] === 'a' ? 'b' : 'a'}${envelope.data.slice(1)}` }
  const before = dapp.stats.dropped
  relay.broadcast(frame(dapp.clientId, JSON.stringify(flipped)))
  // Encrypted with another key: same outcome, same counter.
  relay.broadcast(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 2, jsonrpc: '2.0', method: 'x', params: [] }, generateKey())),
    ),
  )
  // Authentic but not JSON-RPC.
  relay.broadcast(frame(dapp.clientId, JSON.stringify(await encrypt({ hello: 'world' }, keyOf(uri)))))
  await until(() => dapp.stats.dropped === before + 3)
  // The genuine one still goes through.
  relay.broadcast(frame(dapp.clientId, JSON.stringify(envelope)))
  await until(() => calls.length === 1)
  dapp.close()
  wallet.close()
})

test('behavior: frames for other topics are ignored', async () => {
  const { dapp, wallet, uri } = await pair(bridge.url)
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const before = dapp.stats.ignored
  relay.broadcast(
    frame(
      createTopic(),
      JSON.stringify(await encrypt({ id: 1, jsonrpc: '2.0', method: 'x', params: [] }, keyOf(uri))),
    ),
  )
  await until(() => dapp.stats.ignored > before)
  await sleep(20)
  expect(calls).toEqual([])
  dapp.close()
  wallet.close()
})

test('behavior: a response nobody waits for is ignored (v1 made it a call_request)', async () => {
  const { dapp, wallet, uri } = await pair(bridge.url)
  const calls: unknown[] = []
  dapp.on('call_request', (request) => calls.push(request))
  const before = dapp.stats.ignored
  relay.broadcast(
    frame(
      dapp.clientId,
      JSON.stringify(await encrypt({ id: 99, jsonrpc: '2.0', result: 'late' }, keyOf(uri))),
    ),
  )
  await until(() => dapp.stats.ignored > before)
  expect(calls).toEqual([])
  dapp.close()
  wallet.close()
})

test('behavior: the wallet resubscribes its handshake topic after a reconnect while the request is pending', async () => {
  const own = await startRelay()
  const topic = createTopic()
  const key = generateKey()
  const wallet = createClient({
    uri: formatUri({ topic, bridge: own.url, key }),
    storage: false,
    reconnect: { minDelay: 10, maxDelay: 20 },
  })
  await until(() => own.frames.some((f) => f.raw.includes(topic)))
  await own.stop()
  await own.start()
  await until(() => own.frames.filter((f) => f.raw.includes(topic)).length === 2)
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
  own.broadcast(frame(topic, JSON.stringify(await encrypt(request, key))))
  await until(() => requests.length === 1)
  expect(requests).toEqual([{ id: 1, peerId, peerMeta: null, chainId: 1 }])
  // A replay of the same request is ignored.
  own.broadcast(frame(topic, JSON.stringify(await encrypt(request, key))))
  await sleep(30)
  expect(requests).toHaveLength(1)
  wallet.close()
  await own.stop()
})
