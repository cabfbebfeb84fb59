import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import {
  createLinkReader,
  encodeLinkFrame,
  isLinkProof,
  LinkFrame,
  linkProof,
  parseSequenced,
  readDecimal,
  sequencedHead,
} from './linkWire.js'

const A = 'a'.repeat(16)
const B = 'b'.repeat(16)

test('default', () => {
  const frames: [number, string][] = []
  const read = createLinkReader(
    () => 1_024,
    (type, body) => frames.push([type, body.toString()]),
  )
  const wire = Buffer.concat([
    encodeLinkFrame(LinkFrame.message, sequencedHead(A, 1, 7), 'ünïcode'),
    encodeLinkFrame(LinkFrame.ackNow),
    encodeLinkFrame(LinkFrame.ack, '1.7'),
  ])
  // One byte at a time: a frame may straddle any number of chunks.
  for (const byte of wire) read(Buffer.of(byte))
  expect(frames).toEqual([
    [LinkFrame.message, `s${A}1.7:ünïcode`],
    [LinkFrame.ackNow, ''],
    [LinkFrame.ack, '1.7'],
  ])
})

test('behavior: a numbered message parses back to its origin, stream, number and body', () => {
  const message = Buffer.from(`${sequencedHead(A, 3, 42)}b5:hello`)
  const parsed = parseSequenced(message)
  expect(parsed && { ...parsed, inner: parsed.inner.toString() }).toEqual({
    origin: A,
    epoch: 3,
    seq: 42,
    inner: 'b5:hello',
  })
  expect(parseSequenced(Buffer.from(`s${A}3.:x`))).toBeUndefined()
  expect(parseSequenced(Buffer.from(`s${A}3`))).toBeUndefined()
})

test('behavior: each proof is bound to its side, both nonces and both ids', () => {
  const secret = randomBytes(32)
  const [listener, dialer] = [randomBytes(16), randomBytes(16)]
  const proof = linkProof(secret, 'dialer', listener, dialer, A, B)
  expect(isLinkProof(proof, linkProof(secret, 'dialer', listener, dialer, A, B))).toBe(true)
  for (const other of [
    linkProof(secret, 'listener', listener, dialer, A, B),
    linkProof(secret, 'dialer', dialer, listener, A, B),
    linkProof(secret, 'dialer', listener, dialer, B, A),
    linkProof(randomBytes(32), 'dialer', listener, dialer, A, B),
  ])
    expect(isLinkProof(proof, other)).toBe(false)
  expect(isLinkProof(proof.subarray(1), proof)).toBe(false)
})

test('error: a frame longer than the limit throws', () => {
  const read = createLinkReader(
    () => 16,
    () => {},
  )
  expect(() => read(encodeLinkFrame(LinkFrame.message, '', 'x'.repeat(16)))).toThrow(/link frame of 17 bytes/)
})

test('behavior: readDecimal reads 1 to 15 digits in place, NaN otherwise', () => {
  const message = Buffer.from('b312:x:0:1234567890123456:4a')
  expect(readDecimal(message, 1, 4)).toBe(312)
  expect(readDecimal(message, 7, 8)).toBe(0)
  expect(readDecimal(message, 5, 5)).toBeNaN()
  expect(readDecimal(message, 9, 25)).toBeNaN()
  expect(readDecimal(message, 26, 28)).toBeNaN()
})
