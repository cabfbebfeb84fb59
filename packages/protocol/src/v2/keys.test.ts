import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { InvalidKeyError } from '../errors.js'
import {
  createPairingKey,
  deriveSymKey,
  deriveTopic,
  generateKeyPair,
  generateSymKey,
  getPublicKey,
} from './keys.js'

const HEX_64 = /^[0-9a-f]{64}$/

test('default: two key pairs derive one key, whose topic is its sha256', () => {
  const dapp = generateKeyPair()
  const wallet = generateKeyPair()
  expect(dapp.privateKey).toMatch(HEX_64)
  expect(getPublicKey(dapp.privateKey)).toBe(dapp.publicKey)
  const symKey = deriveSymKey(dapp.privateKey, wallet.publicKey)
  expect(symKey).toMatch(HEX_64)
  expect(deriveSymKey(wallet.privateKey, dapp.publicKey)).toBe(symKey)
  expect(deriveTopic(symKey)).toMatch(HEX_64)
  expect(deriveTopic(symKey)).not.toBe(symKey)
})

describe('behavior', () => {
  test('behavior: deriveSymKey is symmetric for any private keys', () => {
    const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'))
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(deriveSymKey(a, getPublicKey(b))).toBe(deriveSymKey(b, getPublicKey(a)))
      }),
      { numRuns: 50 },
    )
  })

  test('behavior: a pairing key is fresh each time and its topic is deriveTopic(symKey)', () => {
    const a = createPairingKey()
    const b = createPairingKey()
    expect(a.topic).toBe(deriveTopic(a.symKey))
    expect(a.symKey).not.toBe(b.symKey)
    expect(generateSymKey()).toMatch(HEX_64)
  })
})

describe('error', () => {
  test('error: keys that are not 32 bytes of hex', () => {
    const { privateKey, publicKey } = generateKeyPair()
    expect(() => deriveSymKey(privateKey.slice(2), publicKey)).toThrow(InvalidKeyError)
    expect(() => deriveSymKey(privateKey, `${publicKey}00`)).toThrow(InvalidKeyError)
    expect(() => deriveTopic('zz'.repeat(32))).toThrow(InvalidKeyError)
    expect(() => getPublicKey(undefined as unknown as string)).toThrow(InvalidKeyError)
  })

  test('error: a low-order peer key (all-zero shared secret)', () => {
    expect(() => deriveSymKey(generateKeyPair().privateKey, '00'.repeat(32))).toThrow(InvalidKeyError)
  })
})
