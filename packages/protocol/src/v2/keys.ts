import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidKeyError } from '../errors.js'
import { bytesToHex, hexToBytes } from '../hex.js'
import { x25519 } from './x25519.js'

/** Size in bytes of every v2 key: X25519 private and public keys, symmetric keys, topics. */
export const KEY_LENGTH_V2 = 32

/** An X25519 key pair, each key 64 lowercase hex characters (the SDK's `CryptoTypes.KeyPair`). */
export type KeyPair = {
  privateKey: string
  publicKey: string
}

/** A new pairing: a random symmetric key and the topic derived from it. */
export type PairingKey = {
  /** The pairing topic: `sha256(symKey)`, hex. */
  topic: string
  /** 32 random bytes, hex: the `symKey` of the pairing URI. */
  symKey: string
}

/**
 * A fresh X25519 key pair, as a dapp makes one for each session proposal and a wallet for each approval.
 *
 * @example
 * const { privateKey, publicKey } = generateKeyPair()
 */
export function generateKeyPair(): KeyPair {
  const { secretKey, publicKey } = x25519.keygen()
  return { privateKey: bytesToHex(secretKey), publicKey: bytesToHex(publicKey) }
}

/** The X25519 public key of a private key, both hex. */
export function getPublicKey(privateKey: string): string {
  return bytesToHex(x25519.getPublicKey(keyBytes(privateKey)))
}

/** 32 random bytes as 64 lowercase hex characters: a new v2 symmetric key. */
export function generateSymKey(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(KEY_LENGTH_V2)))
}

/**
 * The symmetric key two peers share: HKDF-SHA256 (no salt, no info, 32 bytes) over the X25519 shared secret of one
 * side's private key and the other side's public key — the SDK's `deriveSymKey`. Both directions give the same key.
 *
 * @example
 * const symKey = deriveSymKey(self.privateKey, proposal.proposer.publicKey)
 * const sessionTopic = deriveTopic(symKey)
 */
export function deriveSymKey(privateKey: string, peerPublicKey: string): string {
  let shared: Uint8Array
  try {
    shared = x25519.getSharedSecret(keyBytes(privateKey), keyBytes(peerPublicKey))
  } catch {
    // noble refuses low-order points (an all-zero secret): a peer key no honest wallet sends.
    throw new InvalidKeyError()
  }
  return bytesToHex(hkdf(sha256, shared, undefined, undefined, KEY_LENGTH_V2))
}

/** The topic of a symmetric key: `sha256(symKey)` as hex, the SDK's `hashKey`. Pairing and session topics alike. */
export function deriveTopic(symKey: string): string {
  return bytesToHex(sha256(keyBytes(symKey)))
}

/**
 * A new pairing's key and topic, as the dapp's `pairing.create()` makes them before formatting the URI.
 *
 * @example
 * const { topic, symKey } = createPairingKey()
 * const uri = formatPairingUri({ topic, symKey, expiryTimestamp: Math.floor(Date.now() / 1000) + 300 })
 */
export function createPairingKey(): PairingKey {
  const symKey = generateSymKey()
  return { topic: deriveTopic(symKey), symKey }
}

/** 32 bytes from hex, or {@link InvalidKeyError} (whose message never holds the key). */
export function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const bytes = typeof key === 'string' ? hexToBytes(key) : undefined
  if (!bytes || bytes.length !== KEY_LENGTH_V2) throw new InvalidKeyError()
  return bytes
}
