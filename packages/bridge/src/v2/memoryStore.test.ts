import { expect, test } from 'vitest'
import { createMemoryRelayStore } from './memoryStore.js'
import type { StoredMessage } from './store.js'

const limits = {
  maxMessagesPerTopic: 1_000,
  maxBytesPerTopic: 8_388_608,
  maxBytesPerAddress: 1_300_000,
  maxBytesPerNetwork: 2_600_000,
  maxTotalBytes: 268_435_456,
}
const context = {
  limits,
  logger: console,
  dropped: () => {},
  expired: () => {},
  failed: () => {},
  deliver: () => {},
  recovered: () => {},
}

test('behavior: the sweep works in bounded slices; every expired message goes, the budgets with them', () => {
  const store = createMemoryRelayStore()
  store.start(context)
  const now = Date.now()
  for (let t = 0; t < 200; t++) {
    const topic = t.toString(16).padStart(64, '0')
    for (let i = 0; i < 100; i++) {
      const message: StoredMessage = {
        topic,
        message: 'x',
        tag: 0,
        publishedAt: now,
        expiresAt: now + (i % 2 === 0 ? 10 : 60_000),
        from: 'did:key:a',
        owner: '10.0.0.1',
        bytes: 65,
        acked: new Set(),
      }
      expect(store.add(message)).toBeUndefined()
    }
  }
  let expired = 0
  let slices = 0
  for (;;) {
    const result = store.sweep(now + 1_000) as { expired: number; done: boolean }
    expired += result.expired
    slices++
    if (result.done) break
  }
  expect(expired).toBe(10_000)
  expect(slices).toBeGreaterThan(5)
  expect(store.size()).toEqual({ messages: 10_000, bytes: 650_000 })
  // The address's budget was given back: it may keep as much again.
  expect(store.add({ ...firstMessage(now), bytes: 650_000 })).toBeUndefined()
  expect(store.add(firstMessage(now))).toBe('address')
})

function firstMessage(now: number): StoredMessage {
  return {
    topic: 'f'.repeat(64),
    message: 'x',
    tag: 0,
    publishedAt: now,
    expiresAt: now + 60_000,
    from: 'did:key:a',
    owner: '10.0.0.1',
    bytes: 65,
    acked: new Set(),
  }
}

test('behavior: a message the per-topic cap drops gives its bytes back to its address, even its last ones', () => {
  const store = createMemoryRelayStore()
  store.start({ ...context, limits: { ...limits, maxMessagesPerTopic: 1 } })
  const now = Date.now()
  const other = { ...firstMessage(now), topic: 'e'.repeat(64) }
  // Each add after the first drops the topic's one message, the address's only bytes, before keeping the new one.
  for (let i = 0; i < 3; i++) {
    expect(store.add({ ...firstMessage(now), bytes: 600_000 })).toBeUndefined()
    expect(store.size()).toEqual({ messages: 1, bytes: 600_000 })
    // 600 000 kept of 1 300 000: another topic may keep 700 000 more, not a byte beyond.
    expect(store.add({ ...other, bytes: 700_001 })).toBe('address')
  }
  expect(store.add({ ...other, bytes: 700_000 })).toBeUndefined()
})

test('behavior: acks are kept per client: none, one, then several', () => {
  const store = createMemoryRelayStore()
  store.start(context)
  const now = Date.now()
  const message = firstMessage(now)
  store.add(message)
  const pending = (clientId: string) =>
    (store.pending(message.topic, clientId, now) as StoredMessage[]).length
  expect([pending('did:key:b'), pending('did:key:c')]).toEqual([1, 1])
  store.ack(message, 'did:key:b')
  store.ack(message, 'did:key:b')
  expect([pending('did:key:b'), pending('did:key:c')]).toEqual([0, 1])
  store.ack(message, 'did:key:c')
  expect([pending('did:key:b'), pending('did:key:c'), pending('did:key:d')]).toEqual([0, 0, 1])
})
