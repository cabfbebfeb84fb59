import { expect, test } from 'vitest'
import { createMemoryRelayStore } from './memoryStore.js'
import type { StoredMessage } from './store.js'

const limits = {
  maxMessagesPerTopic: 1_000,
  maxBytesPerTopic: 8_388_608,
  maxBytesPerAddress: 1_300_000,
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
