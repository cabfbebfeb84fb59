import { cbc } from '@noble/ciphers/aes.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import type { Cipher } from './envelope.js'

/**
 * AES-256-CBC (PKCS#7) and HMAC-SHA256 in JavaScript, for pages without WebCrypto's `subtle` (insecure contexts).
 * Byte for byte what WebCrypto produces; the envelope code around it is the same.
 */
export function createNobleCipher(key: Uint8Array): Cipher {
  return {
    encrypt: async (iv, plaintext) => cbc(key, iv).encrypt(plaintext),
    decrypt: async (iv, data) => cbc(key, iv).decrypt(data),
    mac: async (data) => hmac(sha256, key, data),
  }
}
