import { createCipheriv, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { vectors } from '../test/vectors.js'
import { decrypt, encrypt, generateKey } from './envelope.js'
import { DecryptionError } from './errors.js'

// A page in an insecure context (plain http on a network address) has `crypto.getRandomValues` but no
// `crypto.subtle`. This file runs the envelope there; its own module instance keeps no WebCrypto keys cached.
beforeAll(() => {
  const { getRandomValues } = globalThis.crypto
  vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) })
})
afterAll(() => vi.unstubAllGlobals())

describe('envelope without crypto.subtle', () => {
  test('default: the page has no subtle', () => {
    expect(globalThis.crypto.subtle).toBeUndefined()
  })

  test.each(vectors.crypto.vectors)('vector: $name encrypts and decrypts byte for byte', async (vector) => {
    const { key, iv, plaintext, envelope, envelope_json } = vector
    expect(JSON.stringify(await encrypt(JSON.parse(plaintext), key, { iv }))).toBe(envelope_json)
    expect(await decrypt(envelope, key)).toEqual(JSON.parse(plaintext))
  })

  test('behavior: what node:crypto encrypts, it decrypts', async () => {
    const key = generateKey()
    const iv = Buffer.alloc(16, 9)
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(key, 'hex'), iv)
    const data = Buffer.concat([cipher.update('{"ok":true}'), cipher.final()])
    const hmac = createHmac('sha256', Buffer.from(key, 'hex'))
      .update(Buffer.concat([data, iv]))
      .digest('hex')
    expect(await decrypt({ data: data.toString('hex'), hmac, iv: iv.toString('hex') }, key)).toEqual({
      ok: true,
    })
  })

  test('error: a changed bit, a wrong key, garbage: the one DecryptionError', async () => {
    const { key, envelope } = vectors.crypto.vectors[1]!
    const flipped = `${envelope.data.slice(0, -1)}${envelope.data.endsWith('0') ? '1' : '0'}`
    for (const [input, withKey] of [
      [{ ...envelope, data: flipped }, key],
      [envelope, generateKey()],
      ['garbage', key],
    ] as const) {
      await expect(decrypt(input as never, withKey)).rejects.toThrowError(new DecryptionError())
    }
  })

  test('behavior: round-trips random payloads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (payload) => {
        const key = generateKey()
        expect(await decrypt(await encrypt(payload, key), key)).toEqual(JSON.parse(JSON.stringify(payload)))
      }),
      { numRuns: 50 },
    )
  })
})
