import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import { decrypt } from './envelope.js'
import {
  formatSocketMessage,
  isJsonRpcError,
  isJsonRpcRequest,
  isJsonRpcResponse,
  parseSocketMessage,
} from './messages.js'

type Frame = { direction?: string; raw?: string; decrypted_payload?: unknown }
const frames = (vectors.session_trace.frames as Frame[]).filter((f) => typeof f.raw === 'string')

describe('parseSocketMessage / formatSocketMessage', () => {
  test.each(Object.entries(vectors.socket_message_examples))('vector: %s', (_, message) => {
    const text = JSON.stringify(message)
    expect(parseSocketMessage(text)).toEqual(message)
    expect(formatSocketMessage(message as never)).toBe(text)
  })

  test('behavior: every frame of the recorded v1 session re-serialises byte for byte', () => {
    expect(frames.length).toBeGreaterThan(20)
    for (const frame of frames) {
      const message = parseSocketMessage(frame.raw!)
      expect(message).toBeDefined()
      expect(formatSocketMessage(message!)).toBe(frame.raw)
    }
  })

  test('behavior: a missing silent (pre-2019 clients) reads as not silent', () => {
    expect(parseSocketMessage('{"topic":"t","type":"pub","payload":"x"}')).toEqual({
      topic: 't',
      type: 'pub',
      payload: 'x',
      silent: false,
    })
  })

  test.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"pub"'],
    ['missing topic', '{"type":"pub","payload":""}'],
    ['numeric topic', '{"topic":1,"type":"pub","payload":""}'],
    ['object payload', '{"topic":"t","type":"pub","payload":{}}'],
    ['string silent', '{"topic":"t","type":"pub","payload":"","silent":"yes"}'],
  ])('error: %s gives undefined', (_, text) => {
    expect(parseSocketMessage(text)).toBeUndefined()
  })
})

describe('session trace', () => {
  test('behavior: every payload of the recorded v1 session decrypts with its key to the recorded JSON-RPC', async () => {
    const pubs = frames.filter((f) => f.decrypted_payload !== undefined)
    expect(pubs.length).toBeGreaterThan(5)
    for (const frame of pubs) {
      const message = parseSocketMessage(frame.raw!)!
      expect(await decrypt(message.payload, vectors.session_trace.session_key)).toEqual(
        frame.decrypted_payload,
      )
    }
  })

  test('behavior: JSON-RPC guards classify every recorded payload', async () => {
    for (const frame of frames.filter((f) => f.decrypted_payload !== undefined)) {
      const payload = frame.decrypted_payload
      expect(isJsonRpcRequest(payload) !== isJsonRpcResponse(payload)).toBe(true)
    }
    expect(isJsonRpcError({ id: 1, jsonrpc: '2.0', error: { code: 1, message: 'm' } })).toBe(true)
    expect(isJsonRpcError({ id: 1, jsonrpc: '2.0', result: null })).toBe(false)
  })
})
