import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { recoverMessageAddress, toHex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { signRelayJwt } from '../../test/relayJwt.js'
import { startBridge } from '../../test/server.js'
import {
  account,
  chainId,
  closeClients,
  pairClients,
  pairWalletKit,
  signedBy,
} from '../../test/signClient.js'
import { createRedisBackend } from '../backends/redis.js'
import { createRedisRelayStore } from './redisStore.js'

// Two bridge nodes sharing a real redis-server for v2; the published SDK as both peers, one on each node.
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await closeClients()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let run = 0
// Whether the nodes cross over the v1 backend's node links (as the CLI and the server run them) or through Redis.
let linked = false
/** Two nodes on one Redis store prefix; their v2 relay URLs. */
async function twoNodes() {
  const keyPrefix = `${redis.keyPrefix}${++run}:`
  const nodes = []
  for (let i = 0; i < 2; i++) {
    const backend = linked ? createRedisBackend({ url: redis.url, keyPrefix: `${keyPrefix}v1:` }) : undefined
    const store = createRedisRelayStore({ url: redis.url, keyPrefix, links: backend?.relayLinks })
    const node = await startBridge({ ...(backend ? { backend } : {}), relay: { store } })
    cleanups.push(node.close)
    nodes.push(node)
  }
  const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]]
  return { a, b, urlA: a.url.replace('http', 'ws'), urlB: b.url.replace('http', 'ws'), keyPrefix }
}

const answerPersonalSign = (wallet: Awaited<ReturnType<typeof pairClients>>['wallet']) =>
  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [`0x${string}`, string]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })

describe.each([
  { crossing: 'through Redis', links: false },
  { crossing: 'over the node links', links: true },
])('$crossing', ({ links }) => {
  beforeAll(() => {
    linked = links
  })

  test('default: dapp on node A, wallet on node B: pair, approve, settle, personal_sign answered', async () => {
    const { a, b, urlA, urlB, keyPrefix } = await twoNodes()
    const { dapp, wallet, session } = await pairClients(urlA, urlB)
    await waitFor(() => wallet.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })
    answerPersonalSign(wallet)
    const message = toHex('across nodes')
    const signature = await dapp.request<`0x${string}`>({
      topic: session.topic,
      chainId,
      request: { method: 'personal_sign', params: [message, account.address] },
    })
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(account.address)
    // Each side's socket is on its own node: every push crossed Redis.
    expect(a.relay?.counts.connections).toBe(1)
    expect(b.relay?.counts.connections).toBe(1)
    expect(a.relay?.counts.deliveries).toBeGreaterThan(0)
    expect(b.relay?.counts.deliveries).toBeGreaterThan(0)
    // Over the links, a message read at once on the other node is written by nobody (the first of each topic is).
    const published = (a.relay?.counts.publishes ?? 0) + (b.relay?.counts.publishes ?? 0)
    const inspect = new Redis(redis.url)
    const written = await inspect.zcard(`${keyPrefix}x`)
    inspect.disconnect()
    if (links) expect(written).toBeLessThan(published)
    else expect(written).toBe(published)
  })

  describe('behavior', () => {
    test('behavior: a request published while the wallet is offline reaches it when it reconnects to the OTHER node', async () => {
      const { a, urlA, urlB } = await twoNodes()
      const { dapp, wallet, session } = await pairClients(urlA, urlB)
      await waitFor(() => wallet.session.get(session.topic).acknowledged, {
        message: 'wallet session acknowledged',
      })
      await wallet.core.relayer.transportClose()
      const published = a.relay?.counts.publishes ?? 0
      wallet.on('session_request', ({ id, topic }) => {
        wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: '0xabcd' } })
      })
      const answer = dapp.request({
        topic: session.topic,
        chainId,
        request: { method: 'personal_sign', params: [toHex('offline'), account.address] },
      })
      await waitFor(() => (a.relay?.counts.publishes ?? 0) > published, { message: 'request kept' })
      // Back on node A (the dapp's), not node B where it was: the mailbox is in Redis.
      await wallet.core.relayer.transportOpen(urlA)
      expect(await answer).toBe('0xabcd')
      expect(a.relay?.counts.connections).toBe(2)
    })

    test('behavior: WalletKit on node B, sign-client dapp on node A', async () => {
      const { urlA, urlB } = await twoNodes()
      const { dapp, session } = await pairWalletKit(urlA, urlB)
      expect(await signedBy(dapp, session.topic, 'WalletKit across nodes')).toBe(account.address)
    })

    test('behavior: raw sockets: a push from node A to node B is acked and not pushed again on re-subscribe', async () => {
      const { urlA, urlB, keyPrefix } = await twoNodes()
      const inspect = new Redis(redis.url)
      cleanups.push(async () => inspect.disconnect())
      const topic = 'd'.repeat(64)
      const dapp = await open(urlA)
      const walletKeys = signRelayJwt({ aud: urlB }).keys
      const wallet = await open(urlB, walletKeys)
      wallet.call('irn_subscribe', { topic })
      await waitFor(() => wallet.frames.length === 1, { message: 'subscribed' })
      dapp.call('irn_publish', { topic, message: 'hello', ttl: 300, tag: 1108 })
      await waitFor(() => wallet.pushes().length === 1, { message: 'pushed across nodes' })
      const [push] = wallet.pushes()
      expect(push?.params.data).toMatchObject({ topic, message: 'hello', tag: 1108 })
      wallet.ws.send(JSON.stringify({ id: push?.id, jsonrpc: '2.0', result: true }))
      await waitFor(async () => (await inspect.keys(`${keyPrefix}a:*`)).length === 1, { message: 'ack kept' })
      // The same client on a new socket, on node A this time, subscribes again: nothing is pushed.
      wallet.ws.close()
      const again = await open(urlA, walletKeys)
      const id = again.call('irn_subscribe', { topic })
      dapp.call('irn_publish', { topic, message: 'after', ttl: 300, tag: 1108 })
      await waitFor(() => again.pushes().length >= 1, { message: 'the next message' })
      expect(again.frames[0]).toMatchObject({ id, result: expect.any(String) })
      expect(again.pushes().map((p) => p.params.data.message)).toEqual(['after'])
    })

    test('behavior: raw sockets: acks sent together on node B hold when the client at once re-subscribes on node A', async () => {
      const { urlA, urlB } = await twoNodes()
      const topic = 'e'.repeat(64)
      const dapp = await open(urlA)
      const walletKeys = signRelayJwt({ aud: urlB }).keys
      const wallet = await open(urlB, walletKeys)
      wallet.call('irn_subscribe', { topic })
      await waitFor(() => wallet.frames.length === 1, { message: 'subscribed' })
      for (const text of ['1', '2', '3'])
        dapp.call('irn_publish', { topic, message: text, ttl: 300, tag: 1108 })
      await waitFor(() => wallet.pushes().length === 3, { message: 'pushed across nodes' })
      // All three acks back to back, then straight away a new socket on the other node: no wait for Redis.
      for (const push of wallet.pushes())
        wallet.ws.send(JSON.stringify({ id: push.id, jsonrpc: '2.0', result: true }))
      wallet.ws.close()
      const again = await open(urlA, walletKeys)
      again.call('irn_subscribe', { topic })
      dapp.call('irn_publish', { topic, message: 'after', ttl: 300, tag: 1108 })
      await waitFor(() => again.pushes().length >= 1, { message: 'the next message' })
      expect(again.pushes().map((p) => p.params.data.message)).toEqual(['after'])
    })
  })
})

type Frame = { id: string | number; result?: unknown; method?: string; params: { data: { message: string } } }

/** A v2 socket with a token of `keys` (a new client when absent). */
async function open(url: string, keys?: ReturnType<typeof signRelayJwt>['keys']) {
  const { token } = signRelayJwt({ aud: url, ...(keys ? { keys } : {}) })
  const ws = new WebSocket(`${url}?auth=${token}&projectId=p&ua=wc-2%2Fjs-2.25.0&useOnCloseEvent=true`)
  cleanups.push(async () => ws.terminate())
  const frames: Frame[] = []
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  let n = 1795338265514170000n
  return {
    ws,
    frames,
    pushes: () => frames.filter((frame) => frame.method === 'irn_subscription'),
    call(method: string, params: unknown) {
      const id = String(++n)
      ws.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
      return id
    },
  }
}
