// Loaded only when a CACAO's signature is checked (`checkCacaoSignature`): secp256k1 and keccak are most of one-click
// auth's weight, and a dapp that never asks for a sign-in does not download them.
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '../hex.js'

/**
 * The address (lowercase hex, no `0x`) whose key made `signature` (64 bytes r‖s) with `recovery` (0 or 1) over the
 * EIP-191 personal-message hash of `message`. Throws for a signature that recovers no point.
 */
export function recoverPersonalSigner(message: string, signature: Uint8Array, recovery: number): string {
  const bytes = new TextEncoder().encode(message)
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${bytes.length}`)
  const hash = keccak_256(new Uint8Array([...prefix, ...bytes]))
  const point = secp256k1.Signature.fromBytes(signature, 'compact')
    .addRecoveryBit(recovery)
    .recoverPublicKey(hash)
  return bytesToHex(keccak_256(point.toBytes(false).subarray(1)).subarray(-20))
}
