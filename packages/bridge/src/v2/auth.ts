import { createPublicKey, verify } from 'node:crypto'
import { type DecodedJwt, decodeDidKey, decodeJwt, InvalidDidKeyError } from '@pairlink/protocol/v2'
import { DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS } from './relayOptions.js'

/** Why a relay token was refused: a short reason, safe to send back and to log (never the token itself). */
export class RelayAuthError extends Error {
  override name = 'RelayAuthError'
}

/** Parameters of {@link verifyRelayJwt}. */
export type VerifyRelayJwtParameters = {
  /** The `auth` query parameter of the upgrade request. */
  token: string | null | undefined
  /**
   * This relay's URLs (or bare hosts) the token's `aud` may name, compared by host and port whatever the scheme: the
   * configured public relay URLs, or the addresses the server listens on. Never a request header: a `Host` naming
   * another relay would admit that relay's tokens.
   */
  audiences: readonly string[]
  /**
   * WalletConnect's stricter checks: `aud` must equal one of `audiences` exactly (full URLs, no host matching), and
   * the header must say `typ: "JWT"` and `alg: "EdDSA"`. @default false
   */
  strict?: boolean | undefined
  /**
   * Longest lifetime (`exp - iat`) accepted: a token leaked once must not open sockets for ever. The SDK's last a day.
   * @default 86400
   */
  maxLifetimeSeconds?: number | undefined
  /** Seconds of clock skew accepted on `iat` and `exp`. @default 60 */
  clockSkewSeconds?: number | undefined
  /** Clock in milliseconds, for tests. @default Date.now */
  now?: number | undefined
}

/** What a verified token says: the client id (`iss`, a `did:key`) and its 32-byte Ed25519 key. */
export type RelayJwtClaims = {
  /** `did:key:z6Mk…`: the client's identity for the whole relay (stable across its reconnects). */
  clientId: string
  publicKey: Uint8Array
  /** `exp`, seconds. */
  expiresAt: number
}

const MAX_TOKEN_LENGTH = 2_048

/**
 * Verifies the relay JWT the v2 SDK sends as `?auth=` (relay-auth's format): header `{"alg":"EdDSA","typ":"JWT"}`,
 * `iss` = `did:key:z` + base58btc(0xed 0x01 ‖ Ed25519 public key), an Ed25519 signature over `header.payload`,
 * `aud` naming this relay, `iat` not in the future and `exp` not past (both with a small skew), `exp - iat` at most
 * `maxLifetimeSeconds`.
 *
 * @throws {RelayAuthError} with a short reason when the token is missing, malformed, wrongly signed, expired or for
 * another relay.
 * @example
 * const { clientId } = verifyRelayJwt({ token: url.searchParams.get('auth'), audiences: ['wss://relay.example.com'] })
 */
export function verifyRelayJwt(parameters: VerifyRelayJwtParameters): RelayJwtClaims {
  const { token } = parameters
  if (!token) throw new RelayAuthError('missing auth token')
  if (token.length > MAX_TOKEN_LENGTH) throw new RelayAuthError('malformed auth token')
  let decoded: DecodedJwt
  try {
    decoded = decodeJwt(token)
  } catch (error) {
    const signature = error instanceof Error && /signature/.test(error.message)
    throw new RelayAuthError(signature ? 'malformed auth token signature' : 'malformed auth token')
  }
  const { header, payload, signature, data } = decoded
  if (header.alg !== 'EdDSA') throw new RelayAuthError('unsupported auth token algorithm')
  if (parameters.strict && header.typ !== 'JWT') throw new RelayAuthError('unsupported auth token type')
  const { iss, aud, iat, exp } = payload
  if (typeof iss !== 'string') throw new RelayAuthError('malformed auth token issuer')
  const publicKey = issuerKey(iss)
  let valid = false
  try {
    // node:crypto (OpenSSL) verifies in ~1/14 of the time of a JS implementation: every v2 connection pays it once.
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
      format: 'jwk',
    })
    valid = signature.length === 64 && verify(null, data, key, signature)
  } catch {
    valid = false
  }
  if (!valid) throw new RelayAuthError('invalid auth token signature')
  if (typeof exp !== 'number' || typeof iat !== 'number')
    throw new RelayAuthError('malformed auth token times')
  const skew = parameters.clockSkewSeconds ?? 60
  const now = (parameters.now ?? Date.now()) / 1000
  if (exp + skew < now) throw new RelayAuthError('expired auth token')
  if (iat - skew > now) throw new RelayAuthError('auth token issued in the future')
  if (exp - iat > (parameters.maxLifetimeSeconds ?? DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS))
    throw new RelayAuthError('auth token lifetime too long')
  const audienceOk = parameters.strict
    ? parameters.audiences.includes(aud as string)
    : typeof aud === 'string' && audienceMatches(aud, parameters.audiences)
  if (typeof aud !== 'string' || !audienceOk)
    throw new RelayAuthError('auth token audience is not this relay')
  return { clientId: iss, publicKey, expiresAt: exp }
}

/** The Ed25519 key of a token's `iss` (`did:key:z…`, multicodec 0xed01), or the refusal naming what is wrong. */
function issuerKey(iss: string): Uint8Array {
  try {
    return decodeDidKey(iss)
  } catch (error) {
    const notEd25519 = error instanceof InvalidDidKeyError && /not an Ed25519/.test(error.message)
    throw new RelayAuthError(
      notEd25519 ? 'auth token issuer is not an Ed25519 did:key' : 'malformed auth token issuer',
    )
  }
}

/** `host:port` of a URL or of a bare host, lower-case, with the scheme's default port filled in. */
export function hostPort(value: string): string | undefined {
  try {
    const url = new URL(value.includes('://') ? value : `ws://${value}`)
    const port = url.port || (url.protocol === 'wss:' || url.protocol === 'https:' ? '443' : '80')
    return `${url.hostname.toLowerCase()}:${port}`
  } catch {
    return undefined
  }
}

function audienceMatches(aud: string, audiences: readonly string[]) {
  const wanted = hostPort(aud)
  if (!wanted) return false
  // The scheme is not compared: `wss://` of a host and port this relay is reached at names it as well as `ws://` (a TLS
  // proxy on that port). A bare host (a configured relay URL without scheme or port) accepts both default ports.
  return audiences.some((audience) => {
    const have = hostPort(audience)
    if (have === wanted) return true
    if (!have || audience.includes('://')) return false
    const bare = !/:\d+$/.test(audience)
    return bare && have.replace(/:80$/, '') === wanted.replace(/:(80|443)$/, '')
  })
}
