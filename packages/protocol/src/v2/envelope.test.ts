import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { DecryptionError, InvalidKeyError } from '../errors.js'
import { decodeEnvelope, decryptEnvelope, type EnvelopeEncoding, encryptEnvelope } from './envelope.js'
import { InvalidEnvelopeError } from './errors.js'
import { deriveSymKey, generateKeyPair, generateSymKey } from './keys.js'

const symKey = generateSymKey()
const message = JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'wc_sessionPing', params: {} })

test('default: type 0 in base64, 12-byte nonce, 16-byte tag', () => {
  const envelope = encryptEnvelope({ symKey, message })
  const bytes = Buffer.from(envelope, 'base64')
  expect(bytes.toString('base64')).toBe(envelope)
  expect(bytes[0]).toBe(0)
  expect(bytes.length).toBe(1 + 12 + Buffer.byteLength(message) + 16)
  expect(decryptEnvelope({ symKey, envelope })).toBe(message)
})

describe('behavior', () => {
  test('behavior: round trip of any text, either type and encoding', () => {
    const sender = generateKeyPair()
    const receiver = generateKeyPair()
    const sessionKey = deriveSymKey(sender.privateKey, receiver.publicKey)
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.constantFrom(0, 1),
        fc.constantFrom<EnvelopeEncoding>('base64', 'base64url'),
        (text, type, encoding) => {
          const envelope =
            type === 1
              ? encryptEnvelope({
                  symKey: sessionKey,
                  message: text,
                  type,
                  senderPublicKey: sender.publicKey,
                  encoding,
                })
              : encryptEnvelope({ symKey, message: text, encoding })
          if (encoding === 'base64url') expect(envelope).toMatch(/^[A-Za-z0-9_-]*$/)
          expect(decodeEnvelope(envelope, encoding).type).toBe(type)
          if (type === 1) {
            expect(decodeEnvelope(envelope, encoding).senderPublicKey).toBe(sender.publicKey)
            const { senderPublicKey = '' } = decodeEnvelope(envelope, encoding)
            const key = deriveSymKey(receiver.privateKey, senderPublicKey)
            expect(decryptEnvelope({ symKey: key, envelope, encoding })).toBe(text)
          } else expect(decryptEnvelope({ symKey, envelope, encoding })).toBe(text)
        },
      ),
    )
  })

  test('behavior: a fresh nonce each time', () => {
    expect(encryptEnvelope({ symKey, message })).not.toBe(encryptEnvelope({ symKey, message }))
  })

  test('behavior: any changed byte is refused', () => {
    const bytes = Buffer.from(encryptEnvelope({ symKey, message }), 'base64')
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (index, flip) => {
        const altered = Buffer.from(bytes)
        altered[index] = (altered[index] ?? 0) ^ flip
        expect(() => decryptEnvelope({ symKey, envelope: altered.toString('base64') })).toThrow(
          // A type byte turned into 1 is a type-1 envelope that does not open; any other type is unknown.
          index === 0 && altered[0] !== 1 ? InvalidEnvelopeError : DecryptionError,
        )
      }),
    )
  })
})

describe('error', () => {
  test('error: the wrong key, and a plaintext that is not UTF-8, look the same', () => {
    const envelope = encryptEnvelope({ symKey, message })
    expect(() => decryptEnvelope({ symKey: generateSymKey(), envelope })).toThrow(DecryptionError)
    expect(() => decryptEnvelope({ symKey: generateSymKey(), envelope })).toThrow(
      'Unable to decrypt envelope',
    )
  })

  test('error: malformed envelopes', () => {
    const malformed = (envelope: string, text: string) =>
      expect(() => decryptEnvelope({ symKey, envelope })).toThrow(
        expect.objectContaining({
          name: 'InvalidEnvelopeError',
          code: 'ERR_ENVELOPE_MALFORMED',
          message: text,
        }),
      )
    malformed('', 'Envelope is truncated')
    malformed('not base64!', 'Envelope is not base64')
    malformed(Buffer.alloc(28).toString('base64'), 'Envelope is truncated')
    malformed(Buffer.concat([Buffer.from([1]), Buffer.alloc(59)]).toString('base64'), 'Envelope is truncated')
    malformed(
      Buffer.concat([Buffer.from([2]), Buffer.alloc(40)]).toString('base64'),
      'Unsupported envelope type 2',
    )
  })

  test('error: bad parameters to encryptEnvelope', () => {
    expect(() => encryptEnvelope({ symKey: 'ab', message })).toThrow(InvalidKeyError)
    expect(() => encryptEnvelope({ symKey, message, type: 1 })).toThrow(InvalidEnvelopeError)
    expect(() => encryptEnvelope({ symKey, message, type: 2 as 0 })).toThrow(InvalidEnvelopeError)
    expect(() => encryptEnvelope({ symKey, message, iv: '00'.repeat(16) })).toThrow(
      expect.objectContaining({ code: 'ERR_IV_INVALID' }),
    )
  })
})
