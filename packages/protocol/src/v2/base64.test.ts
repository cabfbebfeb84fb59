import fc from 'fast-check'
import { expect, test } from 'vitest'
import { decodeBase64, encodeBase64 } from './base64.js'

test('default: the same text as Buffer, padded base64 and unpadded base64url, and back', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const buffer = Buffer.from(bytes)
      expect(encodeBase64(bytes)).toBe(buffer.toString('base64'))
      expect(encodeBase64(bytes, true)).toBe(buffer.toString('base64url'))
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes)
      expect(decodeBase64(encodeBase64(bytes, true), true)).toEqual(bytes)
    }),
  )
})

test('behavior: a large envelope (chunked encoding)', () => {
  const bytes = new Uint8Array(200_000).map((_, i) => i % 251)
  expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes)
})

test('error: text of the other alphabet, bad padding or stray characters', () => {
  expect(decodeBase64('ab_-')).toBeUndefined()
  expect(decodeBase64('ab+/', true)).toBeUndefined()
  expect(decodeBase64('YQ')).toBeUndefined()
  expect(decodeBase64('YQ==', true)).toBeUndefined()
  expect(decodeBase64('Y', true)).toBeUndefined()
  expect(decodeBase64('YQ== ')).toBeUndefined()
  expect(decodeBase64(undefined as unknown as string)).toBeUndefined()
})
