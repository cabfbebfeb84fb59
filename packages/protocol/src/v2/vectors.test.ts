import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, test } from 'vitest'
import { DecryptionError } from '../errors.js'
import { bytesToHex } from '../hex.js'
import { decodeDidKey } from './didKey.js'
import { decodeEnvelope, decryptEnvelope, type EnvelopeType, encryptEnvelope } from './envelope.js'
import { InvalidEnvelopeError } from './errors.js'
import { decodeJwt, getClientId, signRelayJwt } from './jwt.js'
import { deriveSymKey, deriveTopic, getPublicKey } from './keys.js'
import { formatPairingUri, parsePairingUri } from './uri.js'
import vectors from './vectors.json' with { type: 'json' }

const { _about, sha256: digest, ...sets } = vectors

describe('the committed vectors', () => {
  test('behavior: the file is what the generator wrote (its sha256 covers every set)', () => {
    expect(bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(sets))))).toBe(digest)
    expect(_about).toMatch(/@walletconnect\/utils 2\.\d+\.\d+/)
  })

  test('behavior: every set has vectors', () => {
    for (const set of Object.values(sets)) expect(set.length).toBeGreaterThan(0)
  })
})

describe('keys', () => {
  test.each(sets.keys)('vector: $topic', (vector) => {
    expect(getPublicKey(vector.privateKeyA)).toBe(vector.publicKeyA)
    expect(getPublicKey(vector.privateKeyB)).toBe(vector.publicKeyB)
    expect(deriveSymKey(vector.privateKeyA, vector.publicKeyB)).toBe(vector.symKey)
    expect(deriveSymKey(vector.privateKeyB, vector.publicKeyA)).toBe(vector.symKey)
    expect(deriveTopic(vector.symKey)).toBe(vector.topic)
  })

  test.each(sets.topics)('vector: topic $topic', ({ symKey, topic }) => {
    expect(deriveTopic(symKey)).toBe(topic)
  })
})

describe('envelopes', () => {
  test.each(sets.envelopes)('vector: $name', (vector) => {
    const encoding = vector.encoding as 'base64' | 'base64url'
    const type = vector.type as EnvelopeType
    expect(
      encryptEnvelope({
        symKey: vector.symKey,
        message: vector.message,
        type,
        senderPublicKey: vector.senderPublicKey,
        iv: vector.iv,
        encoding,
      }),
    ).toBe(vector.envelope)
    expect(decryptEnvelope({ symKey: vector.symKey, envelope: vector.envelope, encoding })).toBe(
      vector.message,
    )
    const decoded = decodeEnvelope(vector.envelope, encoding)
    expect(decoded.type).toBe(type)
    expect(bytesToHex(decoded.iv)).toBe(vector.iv)
    expect(decoded.senderPublicKey).toBe(vector.senderPublicKey)
    if (vector.receiverPrivateKey && decoded.senderPublicKey)
      expect(deriveSymKey(vector.receiverPrivateKey, decoded.senderPublicKey)).toBe(vector.symKey)
  })

  const errors = { DecryptionError, InvalidEnvelopeError }
  test.each(sets.invalidEnvelopes)('vector: $name', ({ symKey, envelope, error }) => {
    expect(() => decryptEnvelope({ symKey, envelope })).toThrow(errors[error as keyof typeof errors])
  })
})

describe('uri', () => {
  test.each(sets.uriFormat)('vector: format $name', ({ parameters, uri }) => {
    expect(formatPairingUri(parameters)).toBe(uri)
  })

  test.each(sets.uriParse)('vector: parse $name', ({ uri, parsed }) => {
    expect(parsePairingUri(uri, { now: 0 })).toEqual(parsed)
  })
})

describe('relay jwt', () => {
  test.each(sets.jwts)('vector: $aud', async (vector) => {
    const { seed, sub, aud, iat, ttl, token, did } = vector
    expect(await signRelayJwt({ seed, sub, aud, iat, ttl })).toBe(token)
    expect(await getClientId(seed)).toBe(did)
    expect(decodeDidKey(did)).toEqual(ed25519.getPublicKey(Uint8Array.from(Buffer.from(seed, 'hex'))))
    const decoded = decodeJwt(token)
    expect(decoded.payload).toEqual({ iss: did, sub, aud, iat, exp: iat + ttl })
    expect(ed25519.verify(decoded.signature, decoded.data, decodeDidKey(did))).toBe(true)
  })
})
