import { pow } from '@noble/curves/abstract/modular.js'
import { montgomery } from '@noble/curves/abstract/montgomery.js'

// Curve25519's field prime, 2^255 - 19 (RFC 7748 §4.1).
const P = 2n ** 255n - 19n

/**
 * X25519 (RFC 7748) from noble's Montgomery ladder and the curve's parameters alone. `@noble/curves/ed25519.js`'s
 * `x25519` computes public keys on the Edwards curve with precomputed tables, which bundles the whole Edwards code
 * (~7 KB gzip) into every dapp; the ladder gives the same bytes (tested against it) and costs ~3 KB.
 */
export const x25519 = /* @__PURE__ */ montgomery({
  P,
  type: 'x25519',
  // RFC 7748 §5 decodeScalar25519: clear the 3 low bits and the top bit, set bit 254.
  adjustScalarBytes(bytes: Uint8Array) {
    bytes[0] = (bytes[0] as number) & 248
    bytes[31] = ((bytes[31] as number) & 127) | 64
    return bytes
  },
  // Inversion by Fermat (z^(p-2)): a public exponent, so the steps do not depend on the secret ladder state.
  powPminus2: (x) => pow(x, P - 2n, P),
})
