import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createFakeSocket } from '../../test/fakeSocket.js'
import { createRelay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'

// Housekeeping never holds a delivery across nodes up for long: Redis sweeps a large backlog of expired messages
// while node A publishes to a subscriber on node B.
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

test('behavior: sweeping 100 000 expired messages delays no delivery across nodes by more than 50 ms', async () => {
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
  try {
    while ((await inspect.zcount(`${keyPrefix}x`, '-inf', expiredAt)) > 0) {
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
    const delays = received.map((at, i) => at - (sentAt[i] as number))
    // Precondition: the sweep ran while messages were flowing.
    expect(sentAt.length).toBeGreaterThan(5)
    expect(Math.max(...delays)).toBeLessThan(50)
  } finally {
    inspect.disconnect()
    await Promise.all(relays.map((relay) => relay.close()))
  }
})
