import { x25519 as nobleX25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { x25519 } from './x25519.js'

const key = fc.uint8Array({ minLength: 32, maxLength: 32 })

test('default: RFC 7748 §5.2 test vector', () => {
  const scalar = Uint8Array.from(
    Buffer.from('a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4', 'hex'),
  )
  const u = Uint8Array.from(
    Buffer.from('e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c', 'hex'),
  )
  expect(Buffer.from(x25519.scalarMult(scalar, u)).toString('hex')).toBe(
    'c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552',
  )
})

describe('behavior', () => {
  test('behavior: the same public keys and shared secrets as @noble/curves/ed25519.js for any keys', () => {
    fc.assert(
      fc.property(key, key, (a, b) => {
        const publicA = x25519.getPublicKey(a)
        expect(publicA).toEqual(nobleX25519.getPublicKey(a))
        expect(x25519.getSharedSecret(b, publicA)).toEqual(nobleX25519.getSharedSecret(b, publicA))
      }),
      { numRuns: 50 },
    )
  })

  test('behavior: a generated key pair matches its public key', () => {
    const { secretKey, publicKey } = x25519.keygen()
    expect(publicKey).toEqual(nobleX25519.getPublicKey(secretKey))
  })
})

describe('error', () => {
  test('error: low-order peer keys are refused, as @noble/curves/ed25519.js refuses them', () => {
    const { secretKey } = x25519.keygen()
    for (const u of [new Uint8Array(32), Uint8Array.of(1, ...new Array(31).fill(0))]) {
      expect(() => x25519.getSharedSecret(secretKey, u)).toThrow()
      expect(() => nobleX25519.getSharedSecret(secretKey, u)).toThrow()
    }
  })
})
