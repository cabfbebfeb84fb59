import { waitFor } from '@pairlink/test-kit'
import { afterEach, describe, expect, test } from 'vitest'
import { publishParams as publish, setupRelay } from '../../test/relayClient.js'
import type { CreateRelayParameters, Relay } from './createRelay.js'
import { createMemoryRelayStore } from './memoryStore.js'
import type { StoredMessage, StoreRefusal } from './store.js'

// What one request may make the relay do: a batch names each topic once, a fetch's answer is bounded, and bad frames
// spend the rate limit like requests do.
const S = 'b'.repeat(64)
const relays: Relay[] = []
afterEach(() => {
  for (const relay of relays.splice(0)) relay.close()
})
const setup = (parameters: CreateRelayParameters = {}) => setupRelay(relays, parameters)

describe('batches', () => {
  test('behavior: a batch naming one topic 500 times subscribes it once and pushes its kept message once', () => {
    const { client, relay } = setup()
    const dapp = client('did:key:dapp')
    dapp.call('irn_publish', publish(S, 'kept'))
    const wallet = client('did:key:wallet')
    wallet.call('irn_batchSubscribe', { topics: Array(500).fill(S) })
    const frames = wallet.frames()
    expect(frames.filter((frame) => frame.method === 'irn_subscription')).toHaveLength(1)
    expect(frames[0].result).toHaveLength(1)
    expect(relay.counts.subscriptions).toBe(1)
  })

  test('behavior: a fetch naming one topic 500 times answers each kept message once', () => {
    const { client } = setup()
    client('did:key:dapp').call('irn_publish', publish(S, 'kept'))
    const wallet = client('did:key:wallet')
    wallet.call('irn_batchFetchMessages', { topics: Array(500).fill(S) })
    const [answer] = wallet.frames()
    expect(answer.result.messages.map((m: { message: string }) => m.message)).toEqual(['kept'])
    expect(answer.result.hasMore).toBe(false)
  })

  test('behavior: a fetch answers at most maxAnswerBytes of messages (at least one); the rest come with the next', () => {
    const { client } = setup({ maxAnswerBytes: 10_000 })
    const dapp = client('did:key:dapp')
    const sent = Array.from({ length: 7 }, (_, i) => `${i}`.repeat(3_000))
    for (const message of sent) dapp.call('irn_publish', publish(S, message))
    const wallet = client('did:key:wallet')
    const got: string[] = []
    const sizes: number[] = []
    for (let round = 0; round < 10; round++) {
      wallet.call('irn_batchFetchMessages', { topics: [S] })
      const [answer] = wallet.frames()
      const messages = answer.result.messages.map((m: { message: string }) => m.message)
      got.push(...messages)
      sizes.push(messages.length)
      if (!answer.result.hasMore) break
    }
    // Each costs 3 000 + 64 + the per-message overhead, over 4 000: two fit in 10 000, and a lone big one still goes.
    expect(sizes).toEqual([2, 2, 2, 1])
    expect(got).toEqual(sent)
  })
})

describe('bad frames', () => {
  test('error: bad frames spend the rate limit; beyond it the socket is closed with 1008, another address unaffected', () => {
    const { client } = setup({ requestBurst: 20, maxRequestsPerSecond: 0.001 })
    const junk = client('did:key:junk', '10.0.0.1')
    for (let i = 0; i < 50; i++) junk.connection.receive('{not json', 0)
    expect(junk.frames()).toHaveLength(20)
    expect(junk.socket.closedWith).toEqual([1008, 'Rate limit exceeded'])
    const other = client('did:key:other', '10.0.0.2')
    other.call('irn_subscribe', { topic: S })
    expect(other.frames()[0].result).toBeTruthy()
  })

  test('error: answers to no awaited push and binary frames spend it too', () => {
    const { client } = setup({ requestBurst: 3, maxRequestsPerSecond: 0.001 })
    const c = client('did:key:a')
    for (let id = 1; id <= 3; id++) c.connection.receive(`{"id":${id},"jsonrpc":"2.0","result":true}`, 0)
    expect(c.socket.closedWith).toBeUndefined()
    c.connection.receiveBinary(4)
    expect(c.socket.closedWith).toEqual([1008, 'Rate limit exceeded'])
  })

  test('default: the ack of an awaited push costs nothing; a valid request over the limit keeps its -32000 and the socket', () => {
    const { client } = setup({ requestBurst: 2, maxRequestsPerSecond: 0.001 })
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    wallet.frames()
    const dapp = client('did:key:dapp')
    for (let i = 0; i < 2; i++) dapp.call('irn_publish', publish(S, `m${i}`))
    for (const push of wallet.pushes()) wallet.ack(push)
    wallet.call('irn_subscribe', { topic: 'c'.repeat(64) })
    expect(wallet.frames()[0].result).toBeTruthy()
    wallet.call('irn_subscribe', { topic: 'd'.repeat(64) })
    expect(wallet.frames()[0].error.code).toBe(-32000)
    expect(wallet.socket.closedWith).toBeUndefined()
  })
})

describe('kept pushes', () => {
  test('behavior: kept pushes stop at the first frame the socket refuses (a reader dropped for falling behind)', () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    for (let i = 0; i < 50; i++) dapp.call('irn_publish', publish(S, `m${i}`))
    const wallet = client('did:key:wallet')
    let offered = 0
    const send = wallet.socket.send
    // The socket takes 5 frames (the subscribe's answer and 4 pushes), then refuses every one, as a dropped one does.
    wallet.socket.send = (text) => {
      offered++
      if (offered > 5) wallet.socket.open = false
      return send(text)
    }
    wallet.call('irn_subscribe', { topic: S })
    expect(wallet.pushes()).toHaveLength(4)
    expect(offered).toBe(6)
  })
})

describe('frames waiting on the store', () => {
  test('error: the frames one address has waiting behind store requests are bounded over all its sockets', async () => {
    // The store's seam: registering a topic waits until the test lets it go, as a slow Redis would.
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const store = createMemoryRelayStore()
    const { client, relay } = setup({ store: { ...store, watch: () => gate } })
    const frame = JSON.stringify({ id: '1', jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: S } })
    const filler = `${frame}${' '.repeat(900_000)}`
    const sockets = Array.from({ length: 8 }, (_, i) => client(`did:key:${i}`, '10.0.0.1'))
    for (const [i, socket] of sockets.entries()) {
      socket.call('irn_subscribe', { topic: `${i}`.repeat(64) })
      socket.connection.receive(filler, filler.length)
    }
    // 4 of the 900 KB frames fit in the 4 MiB of one address, though each socket has room for one.
    expect(relay.counts.refused).toBe(4)
    const other = client('did:key:other', '10.0.0.2')
    other.call('irn_subscribe', { topic: 'e'.repeat(64) })
    other.connection.receive(filler, filler.length)
    expect(relay.counts.refused).toBe(4)
    release()
    await gate
    await waitFor(() => sockets.every((socket) => socket.socket.sent.length >= 1), { message: 'answered' })
  })
})

describe('publishes waiting on the store', () => {
  // The store's seam: each add waits until the test lets it go, as a write to Redis would.
  function gatedStore() {
    const store = createMemoryRelayStore()
    const gates: (() => void)[] = []
    return {
      gates,
      store: {
        ...store,
        add: (message: StoredMessage) =>
          new Promise<StoreRefusal | undefined>((resolve) => {
            gates.push(() => resolve(store.add(message) as StoreRefusal | undefined))
          }),
      },
    }
  }

  test("behavior: a publish waiting on the store does not hold the socket's next publish back; answers keep request order", async () => {
    const { store, gates } = gatedStore()
    const { client } = setup({ store })
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    wallet.frames()
    const dapp = client('did:key:dapp')
    const first = dapp.call('irn_publish', publish(S, 'first'))
    const second = dapp.call('irn_publish', publish(S, 'second'))
    // Both pushed at once, though the store has answered neither.
    expect(wallet.pushes().map((push) => push.params.data.message)).toEqual(['first', 'second'])
    expect(dapp.frames()).toEqual([])
    // The second is kept first: its answer still waits for the first's.
    gates[1]?.()
    await new Promise(setImmediate)
    expect(dapp.frames()).toEqual([])
    gates[0]?.()
    await waitFor(() => dapp.socket.sent.length === 2, { message: 'both answered' })
    expect(dapp.frames().map((frame) => frame.id)).toEqual([first, second])
  })

  test('behavior: a socket whose publishes are answered goes on though other sockets of its address still hold its share', async () => {
    const { store, gates } = gatedStore()
    const { client } = setup({ store })
    const wallet = client('did:key:wallet', '10.9.9.9')
    wallet.call('irn_subscribe', { topic: S })
    wallet.frames()
    const big = 'b'.repeat(500_000)
    // The dapp holds 1.5 MB of publishes the store has not answered, over a socket's 1 MiB: its next frame waits.
    const dapp = client('did:key:dapp', '10.0.0.1')
    for (let j = 0; j < 3; j++) dapp.call('irn_publish', publish(S, big))
    dapp.call('irn_publish', publish(S, 'small'))
    expect(gates).toHaveLength(3)
    // Then nine more sockets of its address publish one each: 4.5 MB over the address's 4 MiB, and they stay so.
    for (let i = 0; i < 9; i++) client(`did:key:busy${i}`, '10.0.0.1').call('irn_publish', publish(S, big))
    expect(gates).toHaveLength(12)
    // The dapp's own publishes are answered: it goes on with its waiting frame.
    for (let j = 0; j < 3; j++) gates[j]?.()
    await waitFor(() => gates.length === 13, { message: 'the waiting publish handled' })
    const small = wallet
      .pushes()
      .map((push) => push.params.data.message as string)
      .filter((message) => message.length < 10)
    expect(small).toEqual(['small'])
  })

  test("behavior: a subscribe waiting on the store still holds the socket's later frames back", async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const store = createMemoryRelayStore()
    const { client } = setup({ store: { ...store, watch: () => gate } })
    const wallet = client('did:key:wallet')
    const subscribed = wallet.call('irn_subscribe', { topic: S })
    const published = wallet.call('irn_publish', publish('c'.repeat(64), 'later'))
    expect(wallet.frames()).toEqual([])
    release()
    await waitFor(() => wallet.socket.sent.length === 2, { message: 'both answered' })
    expect(wallet.frames().map((frame) => frame.id)).toEqual([subscribed, published])
  })
})

describe('subscriptions', () => {
  test('error: the topics of all the sockets of one address are capped together; another address still subscribes', () => {
    const { client } = setup({ maxTopicsPerIp: 3 })
    const [a, b] = [client('did:key:a', '10.0.0.1'), client('did:key:b', '10.0.0.1')]
    a.call('irn_batchSubscribe', { topics: ['1'.repeat(64), '2'.repeat(64)] })
    b.call('irn_subscribe', { topic: '3'.repeat(64) })
    b.call('irn_subscribe', { topic: '4'.repeat(64) })
    expect(b.frames().map((frame) => frame.error?.message)).toEqual([
      undefined,
      'Too many topics for this address',
    ])
    // An unsubscribe gives its slot back.
    a.call('irn_unsubscribe', { topic: '1'.repeat(64) })
    b.call('irn_subscribe', { topic: '4'.repeat(64) })
    expect(b.frames().at(-1).result).toBeTruthy()
    const other = client('did:key:c', '10.0.0.2')
    other.call('irn_subscribe', { topic: '5'.repeat(64) })
    expect(other.frames()[0].result).toBeTruthy()
  })
})
