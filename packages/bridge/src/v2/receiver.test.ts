import { afterEach, describe, expect, test } from 'vitest'
import { publishParams as publish, setupRelay } from '../../test/relayClient.js'
import type { CreateRelayParameters, Relay } from './createRelay.js'
import { ackId } from './receiver.js'

const S = 'b'.repeat(64)
const relays: Relay[] = []
afterEach(() => {
  for (const relay of relays.splice(0)) relay.close()
})

/** A relay where `dapp` published `messages` on S and `wallet` subscribed it, with the pushes not acked yet. */
function pushed(messages: readonly string[], parameters: CreateRelayParameters = {}) {
  const { relay, client } = setupRelay(relays, parameters)
  const dapp = client('did:key:dapp')
  const wallet = client('did:key:wallet')
  wallet.call('irn_subscribe', { topic: S })
  wallet.frames()
  for (const message of messages) dapp.call('irn_publish', publish(S, message))
  const pushes = wallet.pushes()
  expect(pushes).toHaveLength(messages.length)
  // What a new socket of the wallet's client is pushed again on subscribing: the pushes it did not ack.
  const repushed = () => {
    const again = client('did:key:wallet')
    again.call('irn_subscribe', { topic: S })
    return again.pushes().map((push) => push.params.data.message)
  }
  return { relay, wallet, pushes, repushed }
}

test('default: ackId reads the ack as the SDK writes it', () => {
  expect(ackId('{"id":1795338265514170,"jsonrpc":"2.0","result":true}')).toBe(1795338265514170)
  expect(ackId('{"id":0,"jsonrpc":"2.0","result":true}')).toBe(0)
  expect(ackId(`{"id":${Number.MAX_SAFE_INTEGER},"jsonrpc":"2.0","result":true}`)).toBe(
    Number.MAX_SAFE_INTEGER,
  )
})

describe('behavior', () => {
  test('behavior: ackId leaves every other spelling to the full parse', () => {
    for (const text of [
      '{"id":17,"jsonrpc":"2.0","result":false}',
      '{"id": 17,"jsonrpc":"2.0","result":true}',
      '{"jsonrpc":"2.0","id":17,"result":true}',
      '{"id":"17","jsonrpc":"2.0","result":true}',
      '{"id":-17,"jsonrpc":"2.0","result":true}',
      '{"id":1.5,"jsonrpc":"2.0","result":true}',
      '{"id":017,"jsonrpc":"2.0","result":true}',
      '{"id":,"jsonrpc":"2.0","result":true}',
      '{"id":9007199254740993,"jsonrpc":"2.0","result":true}',
      '{"id":12345678901234567,"jsonrpc":"2.0","result":true}',
      '{"id":17,"jsonrpc":"2.0","result":true} ',
      '{"id":17,"jsonrpc":"2.0","error":{"code":1,"message":"x"}}',
      '{"id":17,"jsonrpc":"2.0","method":"irn_publish","params":{}}',
    ])
      expect(ackId(text)).toBeUndefined()
  })

  test('behavior: an ack spelled otherwise counts as the same ack', () => {
    const { relay, wallet, pushes, repushed } = pushed(['1', '2', '3'])
    const [first, second, third] = pushes
    wallet.connection.receive(`{ "result": true, "jsonrpc": "2.0", "id": ${first.id} }`, 0)
    wallet.ack(second)
    // A refusal is no ack: the message is pushed again on the next subscribe.
    wallet.connection.receive(
      `{"id":${third.id},"jsonrpc":"2.0","error":{"code":-32000,"message":"busy"}}`,
      0,
    )
    expect(relay.counts.acks).toBe(2)
    expect(wallet.frames()).toEqual([])
    expect(repushed()).toEqual(['3'])
  })

  test('behavior: several pushes await their acks, taken in any order; a repeated or unknown ack changes nothing', () => {
    const { relay, wallet, pushes, repushed } = pushed(['0', '1', '2', '3', '4'])
    for (const i of [4, 1, 3, 1, 4]) wallet.ack(pushes[i])
    wallet.ack({ id: pushes[4].id + 1_000 })
    expect(relay.counts.acks).toBe(3)
    expect(repushed()).toEqual(['0', '2'])
  })

  test('behavior: at most 1000 pushes of a socket await their acks; the oldest is forgotten and pushed again', () => {
    const messages = Array.from({ length: 1_002 }, (_, i) => String(i))
    const { relay, wallet, pushes, repushed } = pushed(messages, {
      maxRequestsPerSecond: 0,
      maxRequestsPerSecondPerIp: 0,
      maxMessagesPerTopic: 2_000,
    })
    for (const push of pushes) wallet.ack(push)
    expect(relay.counts.acks).toBe(1_000)
    expect(repushed()).toEqual(['0', '1'])
  })
})

describe('error', () => {
  test('error: an ack that is not JSON (a leading zero) is answered as a parse error, and acks nothing', () => {
    const { relay, wallet, pushes } = pushed(['1'])
    wallet.connection.receive(`{"id":0${pushes[0].id},"jsonrpc":"2.0","result":true}`, 0)
    expect(wallet.frames()).toEqual([
      { id: null, jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
    ])
    expect(relay.counts.acks).toBe(0)
  })
})
