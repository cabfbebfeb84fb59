import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, strip0x } from './hex.js'

/**
 * Whether a value is an address: `0x` and 40 hex digits; when the digits mix upper and lower case they must carry
 * a valid EIP-55 checksum.
 */
export function isAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false
  const body = value.slice(2)
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true
  return checksumAddress(value) === value
}

/** The EIP-55 mixed-case form of an address. */
export function checksumAddress(address: string): string {
  const body = strip0x(address).toLowerCase()
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(body)))
  let out = '0x'
  for (let i = 0; i < body.length; i++) {
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? (body[i] ?? '').toUpperCase() : body[i]
  }
  return out
}
