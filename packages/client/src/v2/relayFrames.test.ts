import { expect, test } from 'vitest'
import { parseRelayFrame, relayRpcId } from './relayFrames.js'

test('default: relay ids are 19 digits and unique in a burst (no double rounding past 2^53)', () => {
  const ids = Array.from({ length: 20_000 }, relayRpcId)
  for (const id of ids.slice(0, 100)) expect(id).toMatch(/^\d{19}$/)
  expect(new Set(ids).size).toBe(ids.length)
})

test('behavior: a push is acked with its id as it came; an answer is matched by its id as text', () => {
  const push = parseRelayFrame(
    '{"id":1795337341302162,"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"s","data":{"topic":"t","message":"m","publishedAt":1}}}',
  )
  expect(push).toEqual({
    push: true,
    ack: '{"id":1795337341302162,"jsonrpc":"2.0","result":true}',
    message: { topic: 't', message: 'm', publishedAt: 1 },
  })
  expect(parseRelayFrame('{"id":"1795338265514170880","jsonrpc":"2.0","result":true}')).toMatchObject({
    push: false,
    id: '1795338265514170880',
    result: true,
  })
})

test('error: not JSON-RPC 2.0 → undefined; a request other than a push → null; a push without data is still acked', () => {
  expect(parseRelayFrame('nope')).toBeUndefined()
  expect(parseRelayFrame('{"id":1,"result":true}')).toBeUndefined()
  expect(parseRelayFrame('{"id":1,"jsonrpc":"2.0","method":"irn_publish","params":{}}')).toBeNull()
  expect(parseRelayFrame('{"id":7,"jsonrpc":"2.0","method":"irn_subscription","params":{}}')).toEqual({
    push: true,
    ack: '{"id":7,"jsonrpc":"2.0","result":true}',
    message: undefined,
  })
})
