import { decodeBase64 } from './base64.js'

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410 §7): SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 },
// OCTET STRING { OCTET STRING seed } }. WebCrypto imports Ed25519 private keys only as PKCS#8 or JWK.
const PKCS8_ED25519_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]

/** An Ed25519 key made from a seed: its public key, and a signer (Ed25519 is deterministic: either source, same bytes). */
export type Ed25519Signer = {
  publicKey: Uint8Array
  sign(message: Uint8Array<ArrayBuffer>): Promise<Uint8Array>
  /** Which implementation signs: the platform's WebCrypto, or noble's, loaded on first use where WebCrypto has no Ed25519. */
  source: 'webcrypto' | 'noble'
}

/** Options of {@link createEd25519Signer}. */
export type CreateEd25519SignerOptions = {
  /** Try WebCrypto's Ed25519 first. `false` always loads noble (the tests compare the two). @default true */
  webCrypto?: boolean | undefined
}

/**
 * The Ed25519 key of a 32-byte seed. WebCrypto's Ed25519 (Node ≥ 20, Chromium ≥ 137, Firefox ≥ 129, Safari ≥ 17) where
 * the platform has it; otherwise `@noble/curves/ed25519.js`, imported only then, so the Edwards code and SHA-512
 * (~10 KB gzip) stay out of the bundle a dapp loads up front.
 */
export async function createEd25519Signer(
  seed: Uint8Array,
  options: CreateEd25519SignerOptions = {},
): Promise<Ed25519Signer> {
  if (options.webCrypto !== false) {
    try {
      const subtle = globalThis.crypto.subtle
      // Extractable only so the JWK export below can read the public key (`x`); the key object stays in here.
      const key = await subtle.importKey(
        'pkcs8',
        new Uint8Array([...PKCS8_ED25519_PREFIX, ...seed]),
        'Ed25519',
        true,
        ['sign'],
      )
      const { x } = await subtle.exportKey('jwk', key)
      const publicKey = x === undefined ? undefined : decodeBase64(x, true)
      if (publicKey?.length === 32)
        return {
          publicKey,
          sign: async (message) => new Uint8Array(await subtle.sign('Ed25519', key, message)),
          source: 'webcrypto',
        }
    } catch {
      // No Ed25519 in this WebCrypto (NotSupportedError), or no `crypto.subtle` at all (an insecure context): noble.
    }
  }
  // A module of our own around the one export: a bundler keeps every export of a dynamically imported module, and
  // ed25519.js also holds ristretto255, FROST and hash-to-curve.
  const { ed25519 } = await import('./nobleEd25519.js')
  return {
    publicKey: ed25519.getPublicKey(seed),
    sign: async (message) => ed25519.sign(message, seed),
    source: 'noble',
  }
}
