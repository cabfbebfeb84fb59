// The shared error classes, so a v2-only import can catch what these functions throw.
export { BaseError, DecryptionError, InvalidKeyError, InvalidUriError } from '../errors.js'
export {
  type AuthNamespace,
  type AuthPayload,
  buildAuthNamespaces,
  type Cacao,
  type CacaoPayload,
  checkCacaoSignature,
  formatAuthMessage,
  formatCacaoMessage,
  parseIss,
} from './cacao.js'
export { decodeDidKey, encodeDidKey } from './didKey.js'
export {
  type DecodedEnvelope,
  type DecryptEnvelopeParameters,
  decodeEnvelope,
  decryptEnvelope,
  ENVELOPE_TYPE_0,
  ENVELOPE_TYPE_1,
  type EncryptEnvelopeParameters,
  type EnvelopeEncoding,
  type EnvelopeType,
  encryptEnvelope,
  IV_LENGTH_V2,
} from './envelope.js'
export {
  ExpiredUriError,
  InvalidCacaoError,
  InvalidDidKeyError,
  InvalidEnvelopeError,
  InvalidJwtError,
} from './errors.js'
export {
  type DecodedJwt,
  decodeJwt,
  decodeJwtSegment,
  encodeJwtSegment,
  getClientId,
  RELAY_JWT_TTL,
  type SignRelayJwtParameters,
  signRelayJwt,
} from './jwt.js'
export {
  createPairingKey,
  deriveSymKey,
  deriveTopic,
  generateKeyPair,
  generateSymKey,
  getPublicKey,
  KEY_LENGTH_V2,
  type KeyPair,
  type PairingKey,
} from './keys.js'
export {
  getRelayRefusalKind,
  isRelayRefusalCode,
  RELAY_REFUSAL_CLOSE_CODE,
  type RelayRefusalKind,
  WALLETCONNECT_DASHBOARD_URL,
  WALLETCONNECT_EXPLORER_URL,
  WALLETCONNECT_RELAY_URL,
} from './network.js'
export {
  createRecap,
  describeRecap,
  getRecapChains,
  getRecapMethods,
  mergeRecaps,
  type Recap,
  readRecap,
} from './recap.js'
export {
  type FormatPairingUriParameters,
  formatPairingUri,
  getUriVersion,
  type PairingUri,
  type ParsePairingUriParameters,
  PROTOCOL_VERSION_V2,
  parsePairingUri,
  RELAY_PROTOCOL,
  V2_URI_ERRORS,
} from './uri.js'
