import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { InvalidKeyError } from '../errors.js'
import { decodeDidKey, encodeDidKey } from './didKey.js'
import { InvalidDidKeyError, InvalidJwtError } from './errors.js'
import {
  decodeJwt,
  decodeJwtSegment,
  encodeJwtSegment,
  getClientId,
  RELAY_JWT_TTL,
  signRelayJwt,
} from './jwt.js'

const seed = ed25519.utils.randomSecretKey()

test('default: relay-auth header and payload, signed by the seed', async () => {
  const before = Math.floor(Date.now() / 1000)
  const token = await signRelayJwt({ seed, aud: 'wss://relay.example.com' })
  const { header, payload, signature, data } = decodeJwt(token)
  expect(header).toEqual({ alg: 'EdDSA', typ: 'JWT' })
  expect(Object.keys(payload)).toEqual(['iss', 'sub', 'aud', 'iat', 'exp'])
  expect(payload.iss).toBe(await getClientId(seed))
  expect(payload.iss).toMatch(/^did:key:z6Mk/)
  expect(payload.sub).toMatch(/^[0-9a-f]{64}$/)
  expect(payload.aud).toBe('wss://relay.example.com')
  expect(payload.iat).toBeGreaterThanOrEqual(before)
  expect(payload.exp).toBe((payload.iat as number) + RELAY_JWT_TTL)
  expect(ed25519.verify(signature, data, ed25519.getPublicKey(seed))).toBe(true)
  expect(token).not.toMatch(/[=+/]/)
})

describe('behavior', () => {
  test('behavior: a hex seed signs the same token as its bytes', async () => {
    const parameters = { aud: 'ws://127.0.0.1:1', sub: 'ab'.repeat(32), iat: 1 }
    expect(await signRelayJwt({ seed: Buffer.from(seed).toString('hex'), ...parameters })).toBe(
      await signRelayJwt({ seed, ...parameters }),
    )
  })

  test('behavior: did:key round trip of any Ed25519 public key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        expect(decodeDidKey(encodeDidKey(key))).toEqual(key)
      }),
    )
  })

  test('behavior: the did:key text is base58btc of 0xed 0x01 and the key, as @scure/base writes it, for any key', () => {
    const keys = fc.oneof(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      // Leading and trailing zero bytes: what a BigInt-based base58 gets wrong first.
      fc.constant(new Uint8Array(32)),
      fc.constant(new Uint8Array(32).fill(255)),
    )
    fc.assert(
      fc.property(keys, (key) => {
        expect(encodeDidKey(key)).toBe(`did:key:z${base58.encode(new Uint8Array([0xed, 0x01, ...key]))}`)
      }),
    )
  })

  test('behavior: JWT segments round trip any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        expect(decodeJwtSegment(encodeJwtSegment(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })
})

describe('error', () => {
  test('error: did:key of another key type, or malformed', () => {
    const refused = (did: string, message: string) =>
      expect(() => decodeDidKey(did)).toThrow(
        expect.objectContaining({ name: 'InvalidDidKeyError', message }),
      )
    refused('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme', 'did:key is not an Ed25519 key')
    refused('did:key:zQ3s', 'did:key is not an Ed25519 key')
    refused('did:web:example.com', 'Malformed did:key')
    refused('did:key:z0OIl', 'Malformed did:key')
    refused(`did:key:z${'1'.repeat(200)}`, 'Malformed did:key')
    expect(() => encodeDidKey(new Uint8Array(31))).toThrow(InvalidDidKeyError)
  })

  test('error: malformed JWTs', async () => {
    const token = await signRelayJwt({ seed, aud: 'x' })
    const [header, payload] = token.split('.')
    expect(() => decodeJwt('a.b')).toThrow(InvalidJwtError)
    expect(() => decodeJwt('a.b.c')).toThrow('Malformed JWT')
    expect(() => decodeJwt(`${header}.${encodeJwtSegment([1])}.x`)).toThrow('Malformed JWT')
    expect(() => decodeJwt(`${header}.${payload}.!!`)).toThrow('Malformed JWT signature')
  })

  test('error: a seed that is not 32 bytes', async () => {
    await expect(signRelayJwt({ seed: 'abcd', aud: 'x' })).rejects.toThrow(InvalidKeyError)
    await expect(getClientId(new Uint8Array(16))).rejects.toThrow(InvalidKeyError)
  })
})
