import { expect, test } from 'vitest'
import * as v2 from './index.js'

test('exports', () => {
  expect(Object.keys(v2).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "DecryptionError",
      "ENVELOPE_TYPE_0",
      "ENVELOPE_TYPE_1",
      "ExpiredUriError",
      "IV_LENGTH_V2",
      "InvalidDidKeyError",
      "InvalidEnvelopeError",
      "InvalidJwtError",
      "InvalidKeyError",
      "InvalidUriError",
      "KEY_LENGTH_V2",
      "PROTOCOL_VERSION_V2",
      "RELAY_JWT_TTL",
      "RELAY_PROTOCOL",
      "RELAY_REFUSAL_CLOSE_CODE",
      "V2_URI_ERRORS",
      "WALLETCONNECT_DASHBOARD_URL",
      "WALLETCONNECT_EXPLORER_URL",
      "WALLETCONNECT_RELAY_URL",
      "createPairingKey",
      "decodeDidKey",
      "decodeEnvelope",
      "decodeJwt",
      "decodeJwtSegment",
      "decryptEnvelope",
      "deriveSymKey",
      "deriveTopic",
      "encodeDidKey",
      "encodeJwtSegment",
      "encryptEnvelope",
      "formatPairingUri",
      "generateKeyPair",
      "generateSymKey",
      "getClientId",
      "getPublicKey",
      "getUriVersion",
      "parsePairingUri",
      "signRelayJwt",
    ]
  `)
})
