import { HMAC_LENGTH, IV_LENGTH, KEY_LENGTH } from './constants.js'
import { BaseError, DecryptionError, InvalidKeyError } from './errors.js'
import { bytesToHex, hexToBytes } from './hex.js'
import type { Envelope } from './messages.js'

/** Parameters of {@link encrypt}. */
export type EncryptParameters = {
  /** A fixed IV (hex, 16 bytes). Only for test vectors: a reused IV breaks confidentiality. @default 16 fresh random bytes */
  iv?: string | undefined
}

/** AES-256-CBC and HMAC-SHA256 under one key: what an envelope needs, whoever implements it. */
export type Cipher = {
  encrypt(iv: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>): Promise<Uint8Array>
  decrypt(iv: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array>
  mac(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array>
}

// Importing a raw key costs more than encrypting a small payload; a session reuses its key for every message.
const keyCache = new Map<string, Promise<Cipher>>()
const KEY_CACHE_SIZE = 32

/** 32 random bytes as 64 lowercase hex characters: the symmetric key of a new session. */
export function generateKey(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(KEY_LENGTH)))
}

/**
 * Encrypts a JSON-RPC payload for the peer (reference §2): AES-256-CBC with PKCS#7 padding and a fresh IV, then
 * HMAC-SHA256 over ciphertext‖iv with the same key. Hex out is lowercase without `0x`.
 *
 * @example
 * const envelope = await encrypt({ id: 1, jsonrpc: '2.0', method: 'personal_sign', params }, key)
 */
export async function encrypt(
  payload: unknown,
  key: string,
  parameters: EncryptParameters = {},
): Promise<Envelope> {
  const cipher = await importKey(key)
  if (!cipher) throw new InvalidKeyError()
  const iv =
    parameters.iv === undefined
      ? globalThis.crypto.getRandomValues(new Uint8Array(IV_LENGTH))
      : hexToBytes(parameters.iv)
  if (!iv || iv.length !== IV_LENGTH)
    throw new BaseError('IV must be 16 bytes of hex', { code: 'ERR_IV_INVALID' })
  const plaintext = new TextEncoder().encode(JSON.stringify(payload))
  const data = await cipher.encrypt(iv, plaintext)
  const hmac = await cipher.mac(concat(data, iv))
  return { data: bytesToHex(data), hmac: bytesToHex(hmac), iv: bytesToHex(iv) }
}

/**
 * Authenticates and decrypts an envelope (an object or its JSON text) and returns the parsed payload. The MAC is
 * checked in constant time before anything is decrypted. Every failure — bad MAC, padding, hex, sizes, UTF-8, JSON,
 * a wrong or malformed key — throws the same {@link DecryptionError}, so the outside learns nothing from it.
 */
export async function decrypt(envelope: Envelope | string, key: string): Promise<unknown> {
  try {
    const fields = typeof envelope === 'string' ? JSON.parse(envelope) : envelope
    if (typeof fields !== 'object' || fields === null) throw new DecryptionError()
    const { data: dataHex, hmac: hmacHex, iv: ivHex } = fields as Record<string, unknown>
    if (typeof dataHex !== 'string' || typeof hmacHex !== 'string' || typeof ivHex !== 'string') {
      throw new DecryptionError()
    }
    const cipher = await importKey(key)
    const data = hexToBytes(dataHex)
    const mac = hexToBytes(hmacHex)
    const iv = hexToBytes(ivHex)
    if (!cipher || !data || !mac || !iv) throw new DecryptionError()
    if (
      iv.length !== IV_LENGTH ||
      mac.length !== HMAC_LENGTH ||
      data.length === 0 ||
      data.length % 16 !== 0
    ) {
      throw new DecryptionError()
    }
    const expected = await cipher.mac(concat(data, iv))
    if (!constantTimeEqual(expected, mac)) throw new DecryptionError()
    const plaintext = await cipher.decrypt(iv, data)
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext))
  } catch {
    // One error for every cause: distinguishing padding from MAC failures is what padding-oracle attacks feed on.
    throw new DecryptionError()
  }
}

/** Compares two byte arrays in time independent of where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/**
 * The cipher of a hex key, or `undefined` when the key is not 32 bytes of hex. WebCrypto where the page has it;
 * pages in an insecure context (plain http on a network address, e.g. a phone reaching a dev server) have no
 * `crypto.subtle`, and get the same algorithms from the noble libraries, loaded only then.
 */
function importKey(key: string): Promise<Cipher | undefined> {
  if (typeof key !== 'string') return Promise.resolve(undefined)
  const cached = keyCache.get(key)
  if (cached) return cached
  const raw = hexToBytes(key)
  if (!raw || raw.length !== KEY_LENGTH) return Promise.resolve(undefined)
  const cipher = globalThis.crypto.subtle
    ? createWebCryptoCipher(globalThis.crypto.subtle, raw)
    : import('./nobleCipher.js').then(({ createNobleCipher }) => createNobleCipher(raw))
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string)
  keyCache.set(key, cipher)
  return cipher
}

async function createWebCryptoCipher(subtle: SubtleCrypto, raw: Uint8Array<ArrayBuffer>): Promise<Cipher> {
  const [aes, hmac] = await Promise.all([
    subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']),
    subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
  ])
  return {
    encrypt: async (iv, plaintext) =>
      new Uint8Array(await subtle.encrypt({ name: 'AES-CBC', iv }, aes, plaintext)),
    decrypt: async (iv, data) => new Uint8Array(await subtle.decrypt({ name: 'AES-CBC', iv }, aes, data)),
    mac: async (data) => new Uint8Array(await subtle.sign('HMAC', hmac, data)),
  }
}
