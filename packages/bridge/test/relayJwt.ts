import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'

/** A client key pair and its `did:key`, as the v2 SDK makes one. */
export function relayKeyPair() {
  const secretKey = ed25519.utils.randomSecretKey()
  const publicKey = ed25519.getPublicKey(secretKey)
  const did = `did:key:z${base58.encode(new Uint8Array([0xed, 0x01, ...publicKey]))}`
  return { secretKey, publicKey, did }
}

/** Signs a relay JWT in relay-auth's format; `overrides` replace header or payload fields. */
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
  const header = { alg: 'EdDSA', typ: 'JWT', ...parameters.header }
  const payload = {
    iss: keys.did,
    sub: 'a'.repeat(64),
    aud: parameters.aud,
    iat,
    exp: parameters.exp ?? iat + 86_400,
    ...parameters.payload,
  }
  const encode = (value: unknown) => base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)))
  const data = `${encode(header)}.${encode(payload)}`
  const signature = ed25519.sign(new TextEncoder().encode(data), keys.secretKey)
  return { token: `${data}.${base64urlnopad.encode(signature)}`, keys }
}
