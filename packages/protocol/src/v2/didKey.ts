import { base58 } from '@scure/base'
import { bytesToHex } from '../hex.js'
import { InvalidDidKeyError } from './errors.js'

const DID_KEY_PREFIX = 'did:key:z'
// Multicodec varint of an Ed25519 public key (0xed), as relay-auth's `K36` header decodes.
const ED25519_MULTICODEC = [0xed, 0x01] as const
const ED25519_PUBLIC_KEY_LENGTH = 32
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * The `did:key` of an Ed25519 public key: `did:key:z` + base58btc(`0xed 0x01` ‖ key), relay-auth's `encodeIss`. It is
 * a v2 client's id on the relay (`did:key:z6Mk…`).
 */
export function encodeDidKey(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH)
    throw new InvalidDidKeyError('An Ed25519 public key is 32 bytes')
  // base58btc of 34 bytes as one BigInt in base 58 (at most 47 digits). Every dapp signs a relay JWT, and @scure/base's
  // general codec costs it ~1.2 KB gzip; the 0xed lead byte means no leading zero bytes, which base58 writes as `1`s.
  // The tests check this against @scure/base's base58 for any key. Decoding, of untrusted text, stays with @scure/base.
  let n = BigInt(`0x${bytesToHex(new Uint8Array([...ED25519_MULTICODEC, ...publicKey]))}`)
  let text = ''
  for (; n > 0n; n /= 58n) text = BASE58_ALPHABET[Number(n % 58n)] + text
  return `${DID_KEY_PREFIX}${text}`
}

/**
 * The 32-byte Ed25519 public key of a `did:key`, relay-auth's `decodeIss`. Throws {@link InvalidDidKeyError}: `Malformed
 * did:key` for text that is not `did:key:z` and base58btc, `did:key is not an Ed25519 key` for another key type.
 */
export function decodeDidKey(did: string): Uint8Array {
  // 34 bytes are at most 47 base58 characters: anything much longer is not a key, whatever it decodes to.
  if (typeof did !== 'string' || !did.startsWith(DID_KEY_PREFIX) || did.length > 128)
    throw new InvalidDidKeyError('Malformed did:key')
  let bytes: Uint8Array
  try {
    bytes = base58.decode(did.slice(DID_KEY_PREFIX.length))
  } catch {
    throw new InvalidDidKeyError('Malformed did:key')
  }
  if (
    bytes.length !== ED25519_MULTICODEC.length + ED25519_PUBLIC_KEY_LENGTH ||
    bytes[0] !== ED25519_MULTICODEC[0] ||
    bytes[1] !== ED25519_MULTICODEC[1]
  )
    throw new InvalidDidKeyError('did:key is not an Ed25519 key')
  return bytes.slice(ED25519_MULTICODEC.length)
}
