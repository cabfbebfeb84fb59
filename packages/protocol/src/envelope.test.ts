import { createCipheriv, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import { decrypt, encrypt, generateKey } from './envelope.js'
import { DecryptionError, InvalidKeyError } from './errors.js'

const [v1, v2] = vectors.crypto.vectors
const first = v1!

describe('decrypt', () => {
  test.each(vectors.crypto.vectors)('vector: $name', async ({ key, envelope, plaintext }) => {
    expect(await decrypt(envelope, key)).toEqual(JSON.parse(plaintext))
  })

  test('args: the envelope as JSON text (the socket payload)', async () => {
    expect(await decrypt(first.envelope_json, first.key)).toEqual(JSON.parse(first.plaintext))
  })

  test('args: upper-case hex and 0x prefixes are accepted', async () => {
    const { data, hmac, iv } = first.envelope
    const shouted = { data: `0x${data.toUpperCase()}`, hmac: `0X${hmac.toUpperCase()}`, iv: `0x${iv}` }
    expect(await decrypt(shouted, `0x${first.key.toUpperCase()}`)).toEqual(JSON.parse(first.plaintext))
  })
})

describe('encrypt', () => {
  test.each(vectors.crypto.vectors)(
    'vector: $name',
    async ({ key, iv, plaintext, envelope, envelope_json }) => {
      const got = await encrypt(JSON.parse(plaintext), key, { iv })
      expect(got).toEqual(envelope)
      expect(JSON.stringify(got)).toBe(envelope_json)
    },
  )

  test('default: a fresh IV every message, lowercase hex, no 0x', async () => {
    const key = generateKey()
    const a = await encrypt({ n: 1 }, key)
    const b = await encrypt({ n: 1 }, key)
    expect(a.iv).not.toBe(b.iv)
    expect(a.data).not.toBe(b.data)
    for (const hex of [a.data, a.hmac, a.iv]) expect(hex).toMatch(/^[0-9a-f]+$/)
    expect(a.iv).toHaveLength(32)
    expect(a.hmac).toHaveLength(64)
  })

  test('behavior: matches node:crypto doing the same work', async () => {
    const key = generateKey()
    const payload = { id: 1, jsonrpc: '2.0', method: 'personal_sign', params: ['0xdead', '0xbeef'] }
    const envelope = await encrypt(payload, key)
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(key, 'hex'), Buffer.from(envelope.iv, 'hex'))
    const data = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final()])
    const hmac = createHmac('sha256', Buffer.from(key, 'hex'))
      .update(Buffer.concat([data, Buffer.from(envelope.iv, 'hex')]))
      .digest('hex')
    expect(envelope).toEqual({ data: data.toString('hex'), hmac, iv: envelope.iv })
  })

  test('error: a key that is not 32 bytes of hex, without echoing it', async () => {
    for (const key of ['', 'zz'.repeat(32), 'ab'.repeat(31), 'ab'.repeat(33)]) {
      await expect(encrypt({}, key)).rejects.toThrowError(InvalidKeyError)
    }
    await expect(encrypt({}, 'ab'.repeat(31))).rejects.not.toThrowError('abab')
  })
})

describe('generateKey', () => {
  test('default: 64 lowercase hex characters, different every call', () => {
    const a = generateKey()
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(generateKey()).not.toBe(a)
  })
})

describe('tampering', () => {
  const flip = (hex: string, bit: number) => {
    const bytes = Buffer.from(hex, 'hex')
    bytes[bit >> 3]! ^= 1 << (bit & 7)
    return bytes.toString('hex')
  }
  const { key, envelope } = v2!
  const garbage = 'f'.repeat(2 * 1024 * 1024)
  const cases: [string, unknown, string][] = [
    ['one bit of data', { ...envelope, data: flip(envelope.data, 5) }, key],
    [
      'one bit of the last data block (padding)',
      { ...envelope, data: flip(envelope.data, envelope.data.length * 4 - 1) },
      key,
    ],
    ['one bit of iv', { ...envelope, iv: flip(envelope.iv, 0) }, key],
    ['one bit of hmac', { ...envelope, hmac: flip(envelope.hmac, 255) }, key],
    ['truncated data', { ...envelope, data: envelope.data.slice(0, -32) }, key],
    ['truncated hmac', { ...envelope, hmac: envelope.hmac.slice(0, 62) }, key],
    ['short iv', { ...envelope, iv: envelope.iv.slice(0, 30) }, key],
    ['odd-length hex', { ...envelope, data: `${envelope.data}0` }, key],
    ['non-hex data', { ...envelope, data: `zz${envelope.data.slice(2)}` }, key],
    ['empty data', { ...envelope, data: '' }, key],
    ['wrong key', envelope, generateKey()],
    ['malformed key', envelope, 'not a key'],
    ['2 MB of garbage', { data: garbage, hmac: garbage, iv: garbage }, key],
    ['2 MB of garbage text', garbage, key],
    ['a JSON array', '[1,2,3]', key],
    ['null', 'null', key],
    ['missing fields', { data: envelope.data }, key],
    ['wrong-typed fields', { data: 1, hmac: [], iv: {} }, key],
  ]

  test.each(cases)('error: %s', async (_, input, withKey) => {
    const error = await decrypt(input as string, withKey).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DecryptionError)
    expect(error).toMatchObject({ message: 'Unable to decrypt envelope', code: 'ERR_ENVELOPE_INVALID' })
  })

  test('behavior: a valid MAC over a plaintext that is not JSON still gives the same error', async () => {
    const keyHex = generateKey()
    const iv = Buffer.alloc(16, 7)
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), iv)
    const data = Buffer.concat([cipher.update('not json {'), cipher.final()])
    const hmac = createHmac('sha256', Buffer.from(keyHex, 'hex'))
      .update(Buffer.concat([data, iv]))
      .digest('hex')
    const error = await decrypt({ data: data.toString('hex'), hmac, iv: iv.toString('hex') }, keyHex).catch(
      (e) => e,
    )
    expect(error).toEqual(new DecryptionError())
  })
})

describe('round trip', () => {
  test('behavior: random JSON payloads and keys', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (payload, raw) => {
          const key = Buffer.from(raw).toString('hex')
          const back = await decrypt(await encrypt(payload, key), key)
          expect(back).toEqual(JSON.parse(JSON.stringify(payload)))
        },
      ),
      { numRuns: 200 },
    )
  })
})
