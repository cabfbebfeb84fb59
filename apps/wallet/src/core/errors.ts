import { BaseError } from '@pairlink/protocol'

/** A private key that is not `0x` + 64 hex digits, or not a valid secp256k1 scalar. Never carries the key. */
export class InvalidPrivateKeyError extends BaseError {
  static override code = 'ERR_WALLET_PRIVATE_KEY'
  override name = 'InvalidPrivateKeyError'
  constructor() {
    super('Invalid private key: expected 0x followed by 64 hex digits')
  }
}

/**
 * A `wc:{topic}@1` URI without `bridge`/`key`: mobile linking uses it only to bring the wallet forward for a
 * pending request (reference §1.3, §6.6), so it must not start a pairing.
 */
export class IncompleteUriError extends BaseError {
  static override code = 'ERR_WALLET_URI_INCOMPLETE'
  override name = 'IncompleteUriError'
  constructor() {
    super('This link only brings the wallet forward; it is not a pairing request')
  }
}
