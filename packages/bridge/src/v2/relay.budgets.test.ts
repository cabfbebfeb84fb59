import { waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { publishParams as publish, setupRelay } from '../../test/relayClient.js'
import type { CreateRelayParameters, Relay } from './createRelay.js'
import { createRedisRelayStore } from './redisStore.js'
import { NETWORK_SHARE_DIVISOR, STORED_MESSAGE_OVERHEAD } from './store.js'

// The mailbox budgets seen from a client (issue 25): the relay in process over fake sockets, on memory and on a real
// redis-server. Rate limits are off where a test publishes thousands of messages in a moment: not their subject.
let redis: TestRedis
let run = 0
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())
const relays: Relay[] = []
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close()
})

type Kind = 'memory' | 'redis'
const NO_RATE_LIMIT = { maxRequestsPerSecond: 0, maxRequestsPerSecondPerIp: 0 }
const topic = (n: number) => n.toString(16).padStart(64, '0')

async function setup(kind: Kind, parameters: CreateRelayParameters = {}) {
  const store =
    kind === 'redis'
      ? // Every message written, as the memory store keeps every one: the budgets of kept messages are the subject (a
        // message read and acked at once is not kept on Redis: redis.writeDelay.test.ts).
        createRedisRelayStore({ url: redis.url, keyPrefix: `${redis.keyPrefix}${++run}:`, writeDelayMs: 0 })
      : undefined
  const made = setupRelay(relays, { ...parameters, store })
  if (store) await made.relay.start()
  return made
}
type Client = ReturnType<Awaited<ReturnType<typeof setup>>['client']>

// The answer to request `id` (awaited: a Redis store answers later).
async function answer(client: Client, id: string) {
  let found: { result?: unknown; error?: { code: number; message: string } } | undefined
  const seen: unknown[] = []
  await waitFor(
    () => {
      seen.push(...client.frames())
      found = seen.find((frame) => (frame as { id?: string }).id === id) as typeof found
      return found !== undefined
    },
    { message: `answer to ${id}` },
  )
  return found as NonNullable<typeof found>
}

// Acks every push the client has been sent, waiting for `count` of them.
async function ackPushes(client: Client, count: number) {
  const pushes: { id: number }[] = []
  await waitFor(
    () => {
      pushes.push(...client.pushes())
      return pushes.length >= count
    },
    { message: `${count} pushes` },
  )
  for (const push of pushes) client.ack(push)
}

test('error: an attestation longer than maxAttestationLength is refused with -32602; one as long is kept', async () => {
  const { client } = await setup('memory', { maxAttestationLength: 100 })
  const dapp = client('did:key:dapp')
  const long = await answer(
    dapp,
    dapp.call('irn_publish', { ...publish(topic(1), 'm'), attestation: 'a'.repeat(101) }),
  )
  expect(long.error).toEqual({ code: -32602, message: expect.stringMatching(/attestation/) })
  const fits = await answer(
    dapp,
    dapp.call('irn_publish', { ...publish(topic(1), 'm'), attestation: 'a'.repeat(100) }),
  )
  expect(fits.result).toBe(true)
})

describe.each<Kind>(['memory', 'redis'])('%s store', (kind) => {
  test('error: a permitted attestation counts against the budgets', async () => {
    const { client, relay } = await setup(kind, { maxQueuedBytesPerIp: 4_000 })
    const dapp = client('did:key:dapp', '10.9.0.1')
    const attestation = 'a'.repeat(4_000)
    const refused = await answer(dapp, dapp.call('irn_publish', { ...publish(topic(1), 'm'), attestation }))
    expect(refused.error).toEqual({ code: -32000, message: expect.stringMatching(/address/) })
    const other = client('did:key:other', '10.9.1.1')
    const kept = await answer(
      other,
      other.call('irn_publish', { ...publish(topic(2), 'm'), attestation: 'b' }),
    )
    expect(kept.result).toBe(true)
    expect(relay.mailbox()).toEqual({ messages: 1, bytes: 1 + 64 + 1 + STORED_MESSAGE_OVERHEAD })
  })

  test('behavior: 100 busy sessions behind one address are never refused under the default budgets', async () => {
    const { client, relay } = await setup(kind, NO_RATE_LIMIT)
    const pairs = Array.from({ length: 100 }, (_, i) => ({
      dapp: client(`did:key:dapp${i}`, '10.1.1.1'),
      wallet: client(`did:key:wallet${i}`, '10.1.1.1'),
      topic: topic(1_000 + i),
    }))
    for (const { wallet, topic } of pairs) await answer(wallet, wallet.call('irn_subscribe', { topic }))
    const message = 'x'.repeat(4_096)
    // 42 rounds of one 4 KB message per session: 4 200 kept messages, 19.6 MB, more than the 16 MiB per address.
    for (let round = 0; round < 42; round++) {
      const ids = pairs.map(({ dapp, topic }) => dapp.call('irn_publish', publish(topic, message)))
      for (let i = 0; i < pairs.length; i++) {
        const { dapp, wallet } = pairs[i] as (typeof pairs)[0]
        expect((await answer(dapp, ids[i] as string)).result).toBe(true)
        await ackPushes(wallet, 1)
      }
    }
    expect(relay.counts.refused).toBe(0)
    expect(relay.counts.publishes).toBe(4_200)
  }, 60_000)

  test('behavior: an address filling the mailbox with messages it acks itself locks nobody out', async () => {
    const { client, relay } = await setup(kind, { ...NO_RATE_LIMIT, maxTotalBytes: 1_048_576 })
    const junk = client('did:key:junk', '10.2.2.1')
    const reader = client('did:key:reader', '10.2.2.1')
    await answer(reader, reader.call('irn_subscribe', { topic: topic(7) }))
    // 300 delivered messages of 4 KB: 1.4 MB through a 1 MiB mailbox.
    for (let i = 0; i < 300; i++) {
      expect(
        (await answer(junk, junk.call('irn_publish', publish(topic(7), 'j'.repeat(4_096))))).result,
      ).toBe(true)
      await ackPushes(reader, 1)
    }
    const other = client('did:key:other', '10.3.3.1')
    expect(
      (await answer(other, other.call('irn_publish', publish(topic(8), 'o'.repeat(4_096))))).result,
    ).toBe(true)
    expect(relay.counts.refused).toBe(0)
    expect(relay.counts.dropped).toBeGreaterThan(0)
  }, 30_000)
})

describe('networks', () => {
  // Publishes 256 KB messages from each address in turn until the network is refused: the bytes it was let keep.
  async function fillNetwork(addresses: readonly string[]) {
    const { client, relay } = await setup('memory', NO_RATE_LIMIT)
    const message = 'n'.repeat(262_144)
    let kept = 0
    let n = 0
    for (const address of addresses) {
      const publisher = client(`did:key:${address}`, address)
      for (;;) {
        const reply = await answer(publisher, publisher.call('irn_publish', publish(topic(++n), message)))
        if (reply.error) {
          if (/network/.test(reply.error.message)) return { kept, client, relay }
          expect(reply.error.message).toMatch(/address/)
          break
        }
        kept += message.length + 64 + STORED_MESSAGE_OVERHEAD
      }
    }
    throw new Error(`${addresses.length} addresses kept ${kept} bytes and were never refused as a network`)
  }

  test('error: one /24 is refused long before the total cap; another network still publishes', async () => {
    const { kept, client, relay } = await fillNetwork([
      '198.51.100.1',
      '198.51.100.2',
      '198.51.100.3',
      '198.51.100.4',
    ])
    // A 33rd of the 256 MiB mailbox (7.8 MiB), under the 32 MiB per network.
    expect(kept).toBeLessThanOrEqual(relay.limits.maxTotalBytes / (NETWORK_SHARE_DIVISOR + 1))
    expect(kept).toBeLessThanOrEqual(relay.limits.maxQueuedBytesPerNetwork)
    const other = client('did:key:other', '198.51.101.1')
    expect((await answer(other, other.call('irn_publish', publish(topic(9), 'o')))).result).toBe(true)
  })

  test('error: one IPv6 /48 is refused long before the total cap, whatever its /64s; another /48 still publishes', async () => {
    const addresses = ['2001:db8:5:1::1', '2001:db8:5:2::1', '2001:db8:5:3::1', '2001:db8:5:4::1']
    const { kept, client, relay } = await fillNetwork(addresses)
    expect(kept).toBeLessThanOrEqual(relay.limits.maxTotalBytes / (NETWORK_SHARE_DIVISOR + 1))
    const other = client('did:key:other', '2001:db8:6::1')
    expect((await answer(other, other.call('irn_publish', publish(topic(9), 'o')))).result).toBe(true)
  })
})
