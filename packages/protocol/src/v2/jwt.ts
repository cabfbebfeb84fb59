import { InvalidKeyError } from '../errors.js'
import { bytesToHex, hexToBytes } from '../hex.js'
import { decodeBase64, encodeBase64 } from './base64.js'
import { encodeDidKey } from './didKey.js'
import { createEd25519Signer } from './ed25519Signer.js'
import { InvalidJwtError } from './errors.js'

/** Lifetime of a relay JWT the SDK signs (`CRYPTO_JWT_TTL`), seconds. */
export const RELAY_JWT_TTL = 86_400

/** Parameters of {@link signRelayJwt}. */
export type SignRelayJwtParameters = {
  /** The client's 32-byte Ed25519 seed (hex or bytes): the SDK's `client_ed25519_seed`, kept for the client's life. */
  seed: string | Uint8Array
  /** The relay URL exactly as the app configured it (`wss://relay.example.com`, no query). */
  aud: string
  /** 32 bytes hex, random per client instance and the same across its reconnects. @default 32 fresh random bytes */
  sub?: string | undefined
  /** Issue time, seconds. @default now */
  iat?: number | undefined
  /** @default 86400 */
  ttl?: number | undefined
}

/** A JWT split into its parts; `data` is the signed text (`header.payload`) as bytes. */
export type DecodedJwt = {
  header: Record<string, unknown>
  payload: Record<string, unknown>
  signature: Uint8Array
  data: Uint8Array
}

/**
 * Signs the relay JWT a v2 client sends as `?auth=`, byte for byte as relay-auth's `signJWT`: header
 * `{"alg":"EdDSA","typ":"JWT"}`, payload `{iss, sub, aud, iat, exp}` in that order with `iss` the seed's `did:key`,
 * every segment base64url without padding, an Ed25519 signature over `header.payload`. Async: it signs with
 * WebCrypto's Ed25519 where the platform has it and loads noble's only where it does not.
 *
 * @example
 * const auth = await signRelayJwt({ seed, aud: 'wss://relay.example.com' })
 * new WebSocket(`wss://relay.example.com?auth=${auth}&ua=…`)
 */
export async function signRelayJwt(parameters: SignRelayJwtParameters): Promise<string> {
  const signer = await createEd25519Signer(seedBytes(parameters.seed))
  const sub = parameters.sub ?? bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)))
  const iat = parameters.iat ?? Math.floor(Date.now() / 1000)
  const header = { alg: 'EdDSA', typ: 'JWT' }
  const payload = {
    iss: encodeDidKey(signer.publicKey),
    sub,
    aud: parameters.aud,
    iat,
    exp: iat + (parameters.ttl ?? RELAY_JWT_TTL),
  }
  const data = `${encodeJwtSegment(header)}.${encodeJwtSegment(payload)}`
  const signature = await signer.sign(new TextEncoder().encode(data))
  return `${data}.${encodeBase64(signature, true)}`
}

/**
 * The client id (`did:key:z6Mk…`) of an Ed25519 seed: the `iss` of every JWT it signs, the SDK core's
 * `crypto.getClientId()`. Async for the same reason as {@link signRelayJwt}.
 *
 * @example
 * const clientId = await getClientId(seed)
 */
export async function getClientId(seed: string | Uint8Array): Promise<string> {
  return encodeDidKey((await createEd25519Signer(seedBytes(seed))).publicKey)
}

/** A JSON value as a JWT segment: base64url of its UTF-8 JSON text, no padding. */
export function encodeJwtSegment(value: unknown): string {
  return encodeBase64(new TextEncoder().encode(JSON.stringify(value)), true)
}

/** A JWT header or payload segment back to its JSON object; {@link InvalidJwtError} for anything else. */
export function decodeJwtSegment(segment: string): Record<string, unknown> {
  try {
    const bytes = decodeBase64(segment, true)
    const value: unknown = bytes && JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw new InvalidJwtError('Malformed JWT')
}

/**
 * Splits a JWT into header, payload, signature and signed bytes without verifying anything. Throws
 * {@link InvalidJwtError}: `Malformed JWT`, or `Malformed JWT signature` when only the signature segment is bad.
 */
export function decodeJwt(token: string): DecodedJwt {
  const parts = typeof token === 'string' ? token.split('.') : []
  if (parts.length !== 3) throw new InvalidJwtError('Malformed JWT')
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = decodeJwtSegment(headerPart)
  const payload = decodeJwtSegment(payloadPart)
  const signature = decodeBase64(signaturePart, true)
  if (!signature) throw new InvalidJwtError('Malformed JWT signature')
  return { header, payload, signature, data: new TextEncoder().encode(`${headerPart}.${payloadPart}`) }
}

function seedBytes(seed: string | Uint8Array): Uint8Array {
  const bytes = typeof seed === 'string' ? hexToBytes(seed) : seed
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new InvalidKeyError()
  return bytes
}
