import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { BaseError, DecryptionError } from '../errors.js'
import { bytesToHex, hexToBytes } from '../hex.js'
import { decodeBase64, encodeBase64 } from './base64.js'
import { InvalidEnvelopeError } from './errors.js'
import { KEY_LENGTH_V2, keyBytes } from './keys.js'

/** Type 0: `0x00 ‖ iv ‖ sealed`, under a key both peers already hold (pairing and session topics). */
export const ENVELOPE_TYPE_0 = 0
/**
 * Type 1: `0x01 ‖ senderPublicKey ‖ iv ‖ sealed`, under the key derived from the sender's X25519 public key and the
 * receiver's private key: how a peer answers on a topic the receiver derived from its own public key.
 */
export const ENVELOPE_TYPE_1 = 1

/** ChaCha20-Poly1305 nonce size in bytes, fresh for every message. */
export const IV_LENGTH_V2 = 12

const TAG_LENGTH = 16

/** The envelope types this package seals and opens. */
export type EnvelopeType = typeof ENVELOPE_TYPE_0 | typeof ENVELOPE_TYPE_1

/**
 * How an envelope is written as text. `base64` (with padding) is what the SDK publishes on the relay; `base64url`
 * (no padding) is what it puts in link-mode URLs.
 */
export type EnvelopeEncoding = 'base64' | 'base64url'

/** Parameters of {@link encryptEnvelope}. */
export type EncryptEnvelopeParameters = {
  /** The topic's symmetric key, 64 hex characters. */
  symKey: string
  /** The plaintext, usually a JSON-RPC payload as JSON text. */
  message: string
  /** @default 0 */
  type?: EnvelopeType | undefined
  /** The sender's X25519 public key, hex; required for type 1, written into the envelope. */
  senderPublicKey?: string | undefined
  /** A fixed nonce (hex, 12 bytes). Only for test vectors: a reused nonce breaks ChaCha20-Poly1305. @default 12 fresh random bytes */
  iv?: string | undefined
  /** @default 'base64' */
  encoding?: EnvelopeEncoding | undefined
}

/** The parts of an envelope, read without a key. */
export type DecodedEnvelope = {
  type: EnvelopeType
  /** Type 1 only: the sender's X25519 public key, hex. */
  senderPublicKey?: string | undefined
  iv: Uint8Array
  /** Ciphertext followed by the 16-byte Poly1305 tag. */
  sealed: Uint8Array
}

/** Parameters of {@link decryptEnvelope}. */
export type DecryptEnvelopeParameters = {
  /** The topic's key; for type 1, `deriveSymKey(receiver private key, decodeEnvelope(envelope).senderPublicKey)`. */
  symKey: string
  envelope: string
  /** @default 'base64' */
  encoding?: EnvelopeEncoding | undefined
}

/**
 * Seals a message as the v2 SDK's `encrypt` does: ChaCha20-Poly1305 under `symKey` with a fresh 12-byte nonce,
 * framed as type 0 or type 1 and written in base64 (or base64url).
 *
 * @example
 * const message = encryptEnvelope({ symKey, message: JSON.stringify(request) })
 */
export function encryptEnvelope(parameters: EncryptEnvelopeParameters): string {
  const { type = ENVELOPE_TYPE_0 } = parameters
  const key = keyBytes(parameters.symKey)
  const iv =
    parameters.iv === undefined
      ? globalThis.crypto.getRandomValues(new Uint8Array(IV_LENGTH_V2))
      : hexToBytes(parameters.iv)
  if (!iv || iv.length !== IV_LENGTH_V2)
    throw new BaseError('IV must be 12 bytes of hex', { code: 'ERR_IV_INVALID' })
  let head: Uint8Array
  if (type === ENVELOPE_TYPE_1) {
    if (parameters.senderPublicKey === undefined)
      throw new InvalidEnvelopeError('A type 1 envelope needs the sender public key')
    head = new Uint8Array([type, ...keyBytes(parameters.senderPublicKey)])
  } else if (type === ENVELOPE_TYPE_0) head = new Uint8Array([type])
  else throw new InvalidEnvelopeError(`Unsupported envelope type ${String(type)}`)
  const sealed = chacha20poly1305(key, iv).encrypt(new TextEncoder().encode(parameters.message))
  const bytes = new Uint8Array(head.length + iv.length + sealed.length)
  bytes.set(head, 0)
  bytes.set(iv, head.length)
  bytes.set(sealed, head.length + iv.length)
  return encodeBase64(bytes, parameters.encoding === 'base64url')
}

/**
 * Reads an envelope's type, sender key (type 1), nonce and sealed bytes without opening it: what a receiver needs to
 * pick the key. Throws {@link InvalidEnvelopeError} for text that is not base64, an unknown type or a short envelope.
 */
export function decodeEnvelope(envelope: string, encoding: EnvelopeEncoding = 'base64'): DecodedEnvelope {
  const bytes = decodeBase64(envelope, encoding === 'base64url')
  if (!bytes) throw new InvalidEnvelopeError('Envelope is not base64')
  const type = bytes[0]
  if (type === undefined) throw new InvalidEnvelopeError('Envelope is truncated')
  if (type !== ENVELOPE_TYPE_0 && type !== ENVELOPE_TYPE_1)
    // Type 2 is link mode's unencrypted envelope; Pairlink neither sends nor accepts it.
    throw new InvalidEnvelopeError(`Unsupported envelope type ${type}`)
  const keyEnd = type === ENVELOPE_TYPE_1 ? 1 + KEY_LENGTH_V2 : 1
  if (bytes.length < keyEnd + IV_LENGTH_V2 + TAG_LENGTH)
    throw new InvalidEnvelopeError('Envelope is truncated')
  const iv = bytes.slice(keyEnd, keyEnd + IV_LENGTH_V2)
  const sealed = bytes.slice(keyEnd + IV_LENGTH_V2)
  return type === ENVELOPE_TYPE_1
    ? { type, senderPublicKey: bytesToHex(bytes.subarray(1, keyEnd)), iv, sealed }
    : { type, iv, sealed }
}

/**
 * Opens an envelope and returns its plaintext. A wrong key, an altered byte or a plaintext that is not UTF-8 all
 * give the same `DecryptionError`; a malformed envelope gives {@link InvalidEnvelopeError} (nothing secret: any relay
 * sees the same bytes). The key of a type 1 envelope comes from its sender key, read by {@link decodeEnvelope}.
 *
 * @example
 * const request = JSON.parse(decryptEnvelope({ symKey, envelope: params.data.message }))
 * // type 1: the key of the sender's public key and the receiver's own private key
 * const { senderPublicKey } = decodeEnvelope(envelope)
 * const answer = decryptEnvelope({ symKey: deriveSymKey(self.privateKey, senderPublicKey), envelope })
 */
export function decryptEnvelope(parameters: DecryptEnvelopeParameters): string {
  const { iv, sealed } = decodeEnvelope(parameters.envelope, parameters.encoding)
  const key = keyBytes(parameters.symKey)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(chacha20poly1305(key, iv).decrypt(sealed))
  } catch {
    throw new DecryptionError()
  }
}
