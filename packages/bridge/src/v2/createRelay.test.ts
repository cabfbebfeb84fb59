import { createHash } from 'node:crypto'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { publishParams as publish, setupRelay } from '../../test/relayClient.js'
import { type CreateRelayParameters, createRelay, type Relay } from './createRelay.js'
import { createMemoryRelayStore } from './memoryStore.js'
import { RELAY_LIMITS } from './relayOptions.js'
import type { RelayStore, StoreRefusal } from './store.js'

const P = 'a'.repeat(64)
const S = 'b'.repeat(64)
const relays: Relay[] = []
afterEach(() => {
  for (const relay of relays.splice(0)) relay.close()
  vi.useRealTimers()
})

const setup = (parameters: CreateRelayParameters = {}) => setupRelay(relays, parameters)

test('default: a publish reaches a subscriber as irn_subscription; the answers echo the ids as sent', () => {
  const { client } = setup()
  const dapp = client('did:key:dapp')
  const wallet = client('did:key:wallet')
  const subId = wallet.call('irn_subscribe', { topic: S })
  expect(wallet.socket.sent[0]).toMatch(
    new RegExp(`^\\{"id":"${subId}","jsonrpc":"2.0","result":"[0-9a-f]{64}"\\}$`),
  )
  wallet.frames()
  const pubId = dapp.call('irn_publish', publish(S, 'hello'))
  expect(dapp.socket.sent).toEqual([`{"id":"${pubId}","jsonrpc":"2.0","result":true}`])
  const [push] = wallet.pushes()
  expect(push).toMatchObject({
    jsonrpc: '2.0',
    method: 'irn_subscription',
    params: { id: expect.stringMatching(/^[0-9a-f]{64}$/), data: { topic: S, message: 'hello', tag: 1108 } },
  })
  expect(typeof push.id).toBe('number')
  expect(typeof push.params.data.publishedAt).toBe('number')
})

describe('behavior', () => {
  test('behavior: a numeric id too large for a double is echoed digit for digit', () => {
    const { client } = setup()
    const c = client('did:key:a')
    c.connection.receive(
      `{"id":1795338265514170881,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"${P}"}}`,
      0,
    )
    expect(c.socket.sent[0]).toMatch(/^\{"id":1795338265514170881,"jsonrpc":"2.0","result":/)
  })

  test("behavior: a push is exactly the JSON of its object: escapes, attestation, the SDK's subscription id", () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    wallet.frames()
    const message = 'quote " backslash \\ newline \n nul \u0000 é 💡 \u2028'
    dapp.call('irn_publish', { ...publish(S, message), attestation: 'att"1' })
    // Without a backslash in its frame (JSON.stringify escapes none of these), the message is pushed as it came.
    const unescaped = 'é 💡 \u2028 </script> ~'
    dapp.call('irn_publish', publish(S, unescaped))
    const sent = wallet.socket.sent.splice(0)
    const subscription = createHash('sha256').update(`${S}did:key:wallet`).digest('hex')
    expect(sent).toHaveLength(2)
    sent.forEach((text, i) => {
      const frame = JSON.parse(text)
      expect(text).toBe(JSON.stringify(frame))
      const data = i === 0 ? { message, attestation: 'att"1' } : { message: unescaped }
      expect(Object.keys(frame.params.data)).toEqual(
        i === 0
          ? ['topic', 'message', 'publishedAt', 'tag', 'attestation']
          : ['topic', 'message', 'publishedAt', 'tag'],
      )
      expect(frame).toEqual({
        id: expect.any(Number),
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: { id: subscription, data: { topic: S, publishedAt: expect.any(Number), tag: 1108, ...data } },
      })
    })
  })

  test('behavior: never pushed back to its publisher, even on another socket of the same client', () => {
    const { client } = setup()
    const a1 = client('did:key:a')
    const a2 = client('did:key:a')
    a2.call('irn_subscribe', { topic: S })
    a1.call('irn_publish', publish(S, 'x'))
    expect(a2.pushes()).toEqual([])
  })

  test('behavior: mailbox: a later subscriber gets kept messages in order; acked ones are not pushed again', () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    for (const m of ['1', '2', '3']) dapp.call('irn_publish', publish(S, m))
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    const frames = wallet.frames()
    expect(frames[0].result).toBeTruthy()
    const pushes = frames.slice(1)
    expect(pushes.map((p) => p.params.data.message)).toEqual(['1', '2', '3'])
    wallet.ack(pushes[0])
    wallet.ack(pushes[2])
    // Reconnect: a new socket of the same client re-subscribes and gets only what it did not ack.
    wallet.connection.close()
    const again = client('did:key:wallet')
    again.call('irn_batchSubscribe', { topics: [S, P] })
    expect(again.pushes().map((p) => p.params.data.message)).toEqual(['2'])
    // Another client still gets all three.
    const other = client('did:key:other')
    other.call('irn_subscribe', { topic: S })
    expect(other.pushes()).toHaveLength(3)
  })

  test('behavior: wc_proposeSession and wc_approveSession publish with tags 1100/1101/1102 and subscribe the sender', () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    const wallet = client('did:key:wallet')
    dapp.call('wc_proposeSession', {
      pairingTopic: P,
      sessionProposal: 'proposal',
      ttl: 300,
      correlationId: 1,
    })
    expect(dapp.frames()).toEqual([expect.objectContaining({ result: true })])
    wallet.call('irn_subscribe', { topic: P })
    const [proposal] = wallet.pushes()
    expect(proposal.params.data).toMatchObject({ topic: P, message: 'proposal', tag: 1100 })
    wallet.call('wc_approveSession', {
      sessionTopic: S,
      pairingTopic: P,
      sessionProposalResponse: 'response',
      sessionSettlementRequest: 'settle',
      ttl: 300,
    })
    // The dapp is subscribed to P implicitly and gets 1101 at once; the settlement waits on S.
    expect(dapp.pushes().map((p) => p.params.data)).toEqual([
      expect.objectContaining({ topic: P, tag: 1101 }),
    ])
    dapp.call('irn_subscribe', { topic: S })
    expect(dapp.pushes().map((p) => p.params.data)).toEqual([
      expect.objectContaining({ topic: S, message: 'settle', tag: 1102 }),
    ])
    // The wallet is subscribed to S implicitly: the dapp's answer reaches it.
    wallet.frames()
    dapp.call('irn_publish', publish(S, 'settled', 1103))
    expect(wallet.pushes().map((p) => p.params.data.tag)).toEqual([1103])
  })

  test('behavior: irn_unsubscribe stops pushes', () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    wallet.call('irn_unsubscribe', { topic: S, id: 'x' })
    wallet.frames()
    dapp.call('irn_publish', publish(S, 'x'))
    expect(wallet.pushes()).toEqual([])
    wallet.call('irn_subscribe', { topic: S })
    wallet.call('irn_batchUnsubscribe', { subscriptions: [{ topic: S, id: 'x' }] })
    wallet.frames()
    dapp.call('irn_batchPublish', { messages: [publish(S, 'y')] })
    expect(wallet.pushes()).toEqual([])
  })

  test('behavior: irn_batchFetchMessages returns and consumes what the client has not had', () => {
    const { client } = setup()
    const dapp = client('did:key:dapp')
    dapp.call('irn_publish', publish(S, 'a'))
    dapp.call('irn_publish', publish(P, 'b', 1000))
    const wallet = client('did:key:wallet')
    wallet.call('irn_batchFetchMessages', { topics: [S, P] })
    expect(wallet.frames()[0].result).toEqual({
      messages: [
        expect.objectContaining({ topic: S, message: 'a' }),
        expect.objectContaining({ topic: P, message: 'b' }),
      ],
      hasMore: false,
    })
    wallet.call('irn_batchFetchMessages', { topics: [S, P] })
    expect(wallet.frames()[0].result).toEqual({ messages: [], hasMore: false })
  })

  test('behavior: a message is kept for its ttl, bounded by maxTtlSeconds, then swept', () => {
    vi.useFakeTimers()
    const { client, relay } = setup({ maxTtlSeconds: 60, sweepIntervalMs: 1_000 })
    const dapp = client('did:key:dapp')
    dapp.call('irn_publish', publish(S, 'x', 1108, 604_800))
    expect(relay.mailbox().messages).toBe(1)
    vi.advanceTimersByTime(59_000)
    expect(relay.mailbox().messages).toBe(1)
    vi.advanceTimersByTime(2_000)
    expect(relay.mailbox().messages).toBe(0)
    expect(relay.counts.expired).toBe(1)
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    expect(wallet.pushes()).toEqual([])
  })

  test("behavior: per-topic caps drop the oldest; the address's share of the mailbox refuses with a retryable error", () => {
    // Each message costs 1 089 bytes (storedBytes); the address may owe (80 000 - owed) / 16 at most.
    const { client, relay } = setup({
      maxMessagesPerTopic: 2,
      maxTotalBytes: 80_000,
      addressShareDivisor: 16,
      networkShareDivisor: 8,
    })
    const dapp = client('did:key:dapp')
    for (const m of ['1', '2', '3']) dapp.call('irn_publish', publish(S, m))
    expect(relay.counts.dropped).toBe(1)
    dapp.frames()
    dapp.call('irn_publish', publish(P, 'z'.repeat(3_000)))
    expect(dapp.frames()[0].error).toEqual({ code: -32000, message: expect.stringMatching(/address/) })
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    expect(wallet.pushes().map((p) => p.params.data.message)).toEqual(['2', '3'])
  })

  test('behavior: a store that answers later: the push goes out at once, the answer waits; a refusal reaches the publisher only', async () => {
    // A shared store's seam: the memory store, answering each add when the test says.
    const memory = createMemoryRelayStore()
    const answers: (() => void)[] = []
    const store: RelayStore = {
      ...memory,
      name: 'later',
      add(message) {
        const refused = message.message === 'refuse me' ? 'address' : memory.add(message)
        return new Promise<StoreRefusal | undefined>((resolve) => {
          answers.push(() => resolve(refused as StoreRefusal | undefined))
        })
      },
    }
    const { client, relay } = setup({ store })
    await relay.start()
    const dapp = client('did:key:dapp')
    const wallet = client('did:key:wallet')
    wallet.call('irn_subscribe', { topic: S })
    wallet.frames()
    // A socket's next frame waits for its request before (its publishes keep their order).
    for (const [text, answer] of [
      ['hello', { result: true }],
      ['refuse me', { error: { code: -32000, message: expect.stringMatching(/address/) } }],
    ] as const) {
      dapp.call('irn_publish', publish(S, text))
      expect(wallet.pushes().map((p) => p.params.data.message)).toEqual([text])
      expect(dapp.socket.sent).toEqual([])
      for (const release of answers.splice(0)) release()
      await vi.waitFor(() => expect(dapp.socket.sent).toHaveLength(1))
      expect(dapp.frames()[0]).toMatchObject(answer)
    }
    expect(relay.counts).toMatchObject({ publishes: 1, refused: 1 })
    // After a refusal, the address's next publish is pushed only once kept; after that, at once again.
    dapp.call('irn_publish', publish(S, 'after'))
    expect(wallet.pushes()).toEqual([])
    for (const release of answers.splice(0)) release()
    await vi.waitFor(() => expect(wallet.socket.sent).toHaveLength(1))
    expect(wallet.pushes().map((p) => p.params.data.message)).toEqual(['after'])
    expect(dapp.frames()[0]).toMatchObject({ result: true })
    dapp.call('irn_publish', publish(S, 'again'))
    expect(wallet.pushes().map((p) => p.params.data.message)).toEqual(['again'])
    for (const release of answers.splice(0)) release()
    await vi.waitFor(() => expect(dapp.socket.sent).toHaveLength(1))
    // Only what the store kept is pushed again to a client that has not acked it.
    const other = client('did:key:other')
    other.call('irn_subscribe', { topic: S })
    expect(other.pushes().map((p) => p.params.data.message)).toEqual(['hello', 'after', 'again'])
  })
})

describe('error', () => {
  test('error: an address over its budget of kept bytes gets -32000; another address is not affected', () => {
    // Each message costs 1 188 bytes (storedBytes).
    const { client, relay } = setup({ maxQueuedBytesPerIp: 2_000 })
    const a = client('did:key:a', '10.0.0.1')
    const b = client('did:key:b', '10.0.0.1')
    const c = client('did:key:c', '10.0.0.2')
    a.call('irn_publish', publish(S, 'x'.repeat(100)))
    b.call('irn_publish', publish(P, 'y'.repeat(100)))
    c.call('irn_publish', publish(P, 'z'.repeat(100)))
    expect(a.frames()[0].result).toBe(true)
    expect(b.frames()[0].error).toEqual({ code: -32000, message: expect.stringMatching(/address/) })
    expect(c.frames()[0].result).toBe(true)
    expect(relay.mailbox().messages).toBe(2)
  })

  test('error: standard JSON-RPC errors; the connection keeps working', () => {
    const { client } = setup()
    const c = client('did:key:a')
    c.connection.receive('{not json', 0)
    c.connection.receive('[1,2]', 0)
    c.connection.receive('{"id":"1","method":"irn_subscribe","params":{}}', 0)
    c.connection.receive('{"id":"2","jsonrpc":"2.0","method":"irn_nope","params":{}}', 0)
    c.connection.receive('{"id":"3","jsonrpc":"2.0","method":"toString","params":{}}', 0)
    c.call('irn_subscribe', { topic: 'NOT-HEX' })
    c.call('irn_publish', { topic: S.toUpperCase(), message: 'x', ttl: 1 })
    c.call('irn_publish', { topic: S, message: 'x', ttl: -1 })
    c.call('irn_publish', { topic: S, message: 'x', ttl: 1, tag: 'a' })
    c.call('irn_batchSubscribe', { topics: 'x' })
    c.call('wc_approveSession', { sessionTopic: S, pairingTopic: P })
    c.connection.receiveBinary(4)
    const codes = c.frames().map((frame) => [frame.id, frame.error.code])
    expect(codes).toEqual([
      [null, -32700],
      [null, -32600],
      ['1', -32600],
      ['2', -32601],
      ['3', -32601],
      [expect.any(String), -32602],
      [expect.any(String), -32602],
      [expect.any(String), -32602],
      [expect.any(String), -32602],
      [expect.any(String), -32602],
      [expect.any(String), -32602],
      [null, -32600],
    ])
    const id = c.call('irn_subscribe', { topic: S })
    expect(c.frames()).toEqual([expect.objectContaining({ id, result: expect.any(String) })])
  })

  test('error: a failed approve changes nothing (no subscription, nothing kept)', () => {
    const { client, relay } = setup()
    const c = client('did:key:a')
    c.call('wc_approveSession', { sessionTopic: S, pairingTopic: P, sessionProposalResponse: 'r', ttl: 300 })
    expect(relay.counts.subscriptions).toBe(0)
    expect(relay.mailbox().messages).toBe(0)
  })

  test('error: over the rate limit a request gets -32000, and the socket stays usable later', () => {
    vi.useFakeTimers()
    const { client } = setup({ maxRequestsPerSecond: 1, requestBurst: 2 })
    const c = client('did:key:a')
    for (let i = 0; i < 3; i++) c.call('irn_subscribe', { topic: S })
    expect(c.frames().map((frame) => frame.error?.code)).toEqual([undefined, undefined, -32000])
    vi.advanceTimersByTime(1_100)
    c.call('irn_subscribe', { topic: S })
    expect(c.frames()[0].result).toBeTruthy()
  })

  test('error: the per-address budget is shared by the sockets of one address', () => {
    const { client } = setup({ maxRequestsPerSecondPerIp: 1, requestBurstPerIp: 1 })
    const a = client('did:key:a', '10.0.0.1')
    const b = client('did:key:b', '10.0.0.1')
    a.call('irn_subscribe', { topic: S })
    b.call('irn_subscribe', { topic: S })
    expect(a.frames()[0].result).toBeTruthy()
    expect(b.frames()[0].error.code).toBe(-32000)
  })

  test('error: topics per socket are capped', () => {
    const { client } = setup({ maxTopicsPerSocket: 1 })
    const c = client('did:key:a')
    c.call('irn_subscribe', { topic: S })
    c.call('irn_subscribe', { topic: P })
    expect(c.frames().map((frame) => frame.error?.code)).toEqual([undefined, -32000])
  })
})

describe('options', () => {
  test.each([
    [{ maxTopicsPerSocket: -1 }, 'Invalid relay option maxTopicsPerSocket: -1'],
    [{ maxMessageLength: Number.NaN }, 'Invalid relay option maxMessageLength: NaN'],
    [{ maxTotalBytes: 0 }, 'Invalid relay option maxTotalBytes: 0'],
    [{ maxBytesPerTopic: 1.5 }, 'Invalid relay option maxBytesPerTopic: 1.5'],
    [{ maxMessageLengthByTag: { 1109: -1 } }, 'Invalid maxMessageLengthByTag: 1109: -1'],
  ] as const)('error: a bad limit is refused when the relay is made (%o)', (parameters, message) => {
    expect(() => createRelay(parameters as CreateRelayParameters)).toThrow(message)
  })

  test('default: every limit has its named default; 0 switches only the rates off', () => {
    const relay = createRelay({ maxRequestsPerSecond: 0 })
    relays.push(relay)
    for (const limit of RELAY_LIMITS)
      expect(relay.limits[limit.key], limit.key).toBe(
        limit.key === 'maxRequestsPerSecond' ? 0 : limit.default,
      )
  })
})
