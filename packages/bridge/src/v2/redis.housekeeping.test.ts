import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createFakeSocket } from '../../test/fakeSocket.js'
import { createRelay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'

// Housekeeping never holds deliveries across nodes up: Redis sweeps a large backlog of expired messages in slices,
// and node A's publishes reach the subscriber on node B between the slices. (How long a delivery waits is measured
// by bench/bridge/housekeeping.mjs, not asserted here.)
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

test('behavior: 100 000 expired messages are swept in slices, with deliveries across nodes between them', async () => {
  const keyPrefix = `${redis.keyPrefix}sweep:`
  const inspect = new Redis(redis.url)
  // A backlog of expired messages in the ledger, as after a burst of short-lived publishes.
  const expiredAt = Date.now() - 1_000
  for (let batch = 0; batch < 100; batch++) {
    const pipeline = inspect.pipeline()
    for (let i = 0; i < 1_000; i++) {
      const n = batch * 1_000 + i
      pipeline.zadd(`${keyPrefix}x`, expiredAt, `${n} 65 10.0.0.1 id${n} ${n.toString(16).padStart(64, '0')}`)
    }
    await pipeline.exec()
  }
  const relays = [0, 1].map(() =>
    createRelay({ store: createRedisRelayStore({ url: redis.url, keyPrefix }), sweepIntervalMs: 20 }),
  ) as [ReturnType<typeof createRelay>, ReturnType<typeof createRelay>]
  await Promise.all(relays.map((relay) => relay.start()))
  const topic = 'a'.repeat(64)
  const wallet = createFakeSocket('w')
  const received: number[] = []
  const socket = {
    ...wallet,
    send(text: string) {
      if (text.includes('irn_subscription')) received.push(performance.now())
      return wallet.send(text)
    },
  }
  relays[1]
    .connect(socket, 'did:key:wallet')
    .receive(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic } }), 0)
  await waitFor(() => wallet.sent.length === 1, { message: 'subscribed' })
  const dapp = relays[0].connect(createFakeSocket('d'), 'did:key:dapp')
  const sentAt: number[] = []
  // The backlog left each time a delivery had arrived while it was still being swept.
  const backlogs = new Set<number>()
  try {
    for (;;) {
      const backlog = await inspect.zcount(`${keyPrefix}x`, '-inf', expiredAt)
      if (backlog === 0) break
      if (received.length > 0) backlogs.add(backlog)
      sentAt.push(performance.now())
      dapp.receive(
        JSON.stringify({
          id: sentAt.length + 1,
          jsonrpc: '2.0',
          method: 'irn_publish',
          params: { topic, message: String(sentAt.length), ttl: 300 },
        }),
        0,
      )
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await waitFor(() => received.length === sentAt.length, { message: 'every publish delivered' })
    // One sweep taking the whole backlog at once would leave no delivery between two backlog sizes.
    expect(backlogs.size).toBeGreaterThan(5)
  } finally {
    inspect.disconnect()
    await Promise.all(relays.map((relay) => relay.close()))
  }
})
