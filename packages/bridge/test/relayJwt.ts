import { ed25519 } from '@noble/curves/ed25519.js'
import { encodeDidKey, encodeJwtSegment } from '@pairlink/protocol/v2'

/** A client key pair and its `did:key`, as the v2 SDK makes one. */
export function relayKeyPair() {
  const secretKey = ed25519.utils.randomSecretKey()
  const publicKey = ed25519.getPublicKey(secretKey)
  return { secretKey, publicKey, did: encodeDidKey(publicKey) }
}

/**
 * Signs a relay JWT in relay-auth's format, synchronously with noble (the protocol's `signRelayJwt` is async and its
 * vector tests pin it to the same bytes; auth.test.ts checks one of its tokens here too). `header` or `payload`
 * overrides make a token the SDK would never send, signed all the same.
 */
export function signRelayJwt(
  parameters: {
    aud: string
    keys?: ReturnType<typeof relayKeyPair>
    iat?: number
    exp?: number
    header?: Record<string, unknown>
    payload?: Record<string, unknown>
  } = { aud: '' },
) {
  const keys = parameters.keys ?? relayKeyPair()
  const iat = parameters.iat ?? Math.floor(Date.now() / 1000)
  const ttl = (parameters.exp ?? iat + 86_400) - iat
  const header = { alg: 'EdDSA', typ: 'JWT', ...parameters.header }
  const payload = {
    iss: keys.did,
    sub: 'a'.repeat(64),
    aud: parameters.aud,
    iat,
    exp: iat + ttl,
    ...parameters.payload,
  }
  const data = `${encodeJwtSegment(header)}.${encodeJwtSegment(payload)}`
  const signature = ed25519.sign(new TextEncoder().encode(data), keys.secretKey)
  return { token: `${data}.${Buffer.from(signature).toString('base64url')}`, keys }
}
