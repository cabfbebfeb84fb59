import { getClientId, signRelayJwt as signProtocolJwt } from '@pairlink/protocol/v2'
import { describe, expect, test } from 'vitest'
import { relayKeyPair, signRelayJwt } from '../../test/relayJwt.js'
import { hostPort, verifyRelayJwt } from './auth.js'

const aud = 'ws://127.0.0.1:41989'
const audiences = ['127.0.0.1:41989']

test('default: a token in relay-auth format gives its issuer as the client id', () => {
  const { token, keys } = signRelayJwt({ aud })
  const claims = verifyRelayJwt({ token, audiences })
  expect(claims.clientId).toBe(keys.did)
  expect(claims.clientId.startsWith('did:key:z6Mk')).toBe(true)
  expect(claims.publicKey).toEqual(keys.publicKey)
})

describe('behavior', () => {
  test('behavior: a token from @pairlink/protocol/v2 signRelayJwt (WebCrypto Ed25519) verifies, issued by its client id', async () => {
    const { secretKey } = relayKeyPair()
    const token = await signProtocolJwt({ seed: secretKey, aud })
    expect(verifyRelayJwt({ token, audiences }).clientId).toBe(await getClientId(secretKey))
  })

  test('behavior: aud is compared by host and port, whatever the scheme (a TLS proxy in front)', () => {
    expect(
      verifyRelayJwt({
        token: signRelayJwt({ aud: 'wss://relay.example.com' }).token,
        audiences: ['relay.example.com'],
      }).clientId,
    ).toMatch(/^did:key:/)
    expect(
      verifyRelayJwt({
        token: signRelayJwt({ aud: 'wss://relay.example.com' }).token,
        audiences: ['wss://relay.example.com/'],
      }).clientId,
    ).toMatch(/^did:key:/)
    expect(verifyRelayJwt({ token: signRelayJwt({ aud: `${aud}/` }).token, audiences }).clientId).toMatch(
      /^did:key:/,
    )
  })

  test('behavior: a small clock skew is allowed', () => {
    const iat = Math.floor(Date.now() / 1000) + 30
    expect(verifyRelayJwt({ token: signRelayJwt({ aud, iat }).token, audiences }).clientId).toMatch(
      /^did:key:/,
    )
    const exp = Math.floor(Date.now() / 1000) - 30
    expect(
      verifyRelayJwt({ token: signRelayJwt({ aud, iat: exp - 100, exp }).token, audiences }).clientId,
    ).toMatch(/^did:key:/)
  })

  test('behavior: hostPort fills in default ports', () => {
    expect(hostPort('wss://Relay.Example.com')).toBe('relay.example.com:443')
    expect(hostPort('127.0.0.1:5001')).toBe('127.0.0.1:5001')
    expect(hostPort('ws://[::1]:8080')).toBe('[::1]:8080')
  })
})

describe('error', () => {
  const refused = (token: string | undefined, reason: RegExp, options: { now?: number } = {}) =>
    expect(() => verifyRelayJwt({ token, audiences, ...options })).toThrow(
      expect.objectContaining({ name: 'RelayAuthError', message: expect.stringMatching(reason) }),
    )

  test('error: missing', () => {
    refused(undefined, /missing/)
    refused('', /missing/)
  })

  test('error: malformed', () => {
    refused('abc', /malformed/)
    refused('a.b.c', /malformed/)
    refused(`${'a'.repeat(3000)}.b.c`, /malformed/)
    const { token } = signRelayJwt({ aud })
    const [h, p] = token.split('.')
    refused(`${h}.${p}.!!!`, /malformed auth token signature/)
    refused(signRelayJwt({ aud, header: { alg: 'HS256' } }).token, /algorithm/)
    refused(signRelayJwt({ aud, payload: { iss: 42 } }).token, /issuer/)
    refused(signRelayJwt({ aud, payload: { iat: 'now' } }).token, /times/)
  })

  test('error: wrongly signed (another key, altered payload)', () => {
    const other = relayKeyPair()
    const { token } = signRelayJwt({ aud, payload: { iss: other.did } })
    refused(token, /signature/)
    const good = signRelayJwt({ aud }).token.split('.')
    const altered = Buffer.from(JSON.stringify({ iss: 'x' })).toString('base64url')
    refused(`${good[0]}.${altered}.${good[2]}`, /issuer/)
  })

  test('error: expired, or issued in the future', () => {
    const now = Math.floor(Date.now() / 1000)
    refused(signRelayJwt({ aud, iat: now - 1000, exp: now - 120 }).token, /expired/)
    refused(signRelayJwt({ aud, iat: now + 600 }).token, /future/)
  })

  test('error: a lifetime (exp - iat) over maxLifetimeSeconds, a day by default', () => {
    const iat = Math.floor(Date.now() / 1000)
    refused(signRelayJwt({ aud, iat, exp: iat + 2 * 86_400 }).token, /auth token lifetime too long/)
    const day = signRelayJwt({ aud, iat, exp: iat + 86_400 }).token
    expect(verifyRelayJwt({ token: day, audiences }).clientId).toMatch(/^did:key:/)
    expect(() => verifyRelayJwt({ token: day, audiences, maxLifetimeSeconds: 3_600 })).toThrow(/lifetime/)
  })

  test('error: audience of another relay', () => {
    refused(signRelayJwt({ aud: 'ws://127.0.0.1:1' }).token, /audience/)
    refused(signRelayJwt({ aud: 'wss://relay.walletconnect.org' }).token, /audience/)
    refused(signRelayJwt({ aud: '' }).token, /audience/)
  })

  test('error: an issuer that is not an Ed25519 did:key', () => {
    // A secp256k1 did:key (multicodec 0xe7 0x01): the signature is never tried.
    refused(
      signRelayJwt({ aud, payload: { iss: 'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme' } })
        .token,
      /not an Ed25519/,
    )
    refused(
      signRelayJwt({ aud, payload: { iss: 'did:web:example.com' } }).token,
      /malformed auth token issuer/,
    )
    refused(signRelayJwt({ aud, payload: { iss: 'did:key:z0OIl' } }).token, /malformed auth token issuer/)
  })

  test("behavior: a token from the protocol signer with relay-auth's payload passes", () => {
    const keys = relayKeyPair()
    const { token } = signRelayJwt({ aud, keys })
    expect(verifyRelayJwt({ token, audiences }).publicKey).toEqual(keys.publicKey)
  })
})
