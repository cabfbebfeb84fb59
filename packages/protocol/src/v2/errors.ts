import { BaseError, InvalidUriError } from '../errors.js'

/** A v2 pairing URI whose `expiryTimestamp` has passed: the dapp must show a new one. */
export class ExpiredUriError extends InvalidUriError {
  static override code = 'ERR_URI_EXPIRED'
  override name = 'ExpiredUriError'
  constructor() {
    super('Pairing URI has expired')
  }
}

/**
 * A v2 envelope whose outer form is wrong: not base64, too short for its type, or of a type this package does not
 * open. Only what any relay can see is reported; a wrong key or an altered byte gives `DecryptionError` instead.
 */
export class InvalidEnvelopeError extends BaseError {
  static override code = 'ERR_ENVELOPE_MALFORMED'
  override name = 'InvalidEnvelopeError'
}

/** A `did:key` that is not the multibase base58btc form of an Ed25519 public key (multicodec `0xed01`). */
export class InvalidDidKeyError extends BaseError {
  static override code = 'ERR_DID_KEY_INVALID'
  override name = 'InvalidDidKeyError'
}

/** A relay JWT that is not three base64url segments with a JSON header and payload. */
export class InvalidJwtError extends BaseError {
  static override code = 'ERR_JWT_INVALID'
  override name = 'InvalidJwtError'
}

/**
 * A CACAO (CAIP-74) whose sign-in text cannot be written: an `iss` that is not an eip155 `did:pkh`, a ReCap that does
 * not decode, a statement with a line break. `field` names the part at fault; `reason` says how, never echoing it.
 */
export class InvalidCacaoError extends BaseError {
  static override code = 'ERR_CACAO_INVALID'
  override name = 'InvalidCacaoError'
  /** The payload field at fault: `iss`, `statement` or `resources`. */
  readonly field: string
  /** What is wrong with it, in words (no part of the CACAO). */
  readonly reason: string
  constructor(field: string, reason: string) {
    super(`Invalid CACAO: ${reason}`, { code: InvalidCacaoError.code, details: field })
    this.field = field
    this.reason = reason
  }
}
