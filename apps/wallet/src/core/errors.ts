import { BaseError, walkError } from '@pairlink/protocol'

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

/**
 * A link v1's own URI checks would let through or misname: a damaged WalletConnect v2 link (`wc:…@2?…`), or a `wc:`
 * text with neither bridge nor key that is not v1's `wc:{topic}@1` nudge. The message says which, in plain words.
 */
export class UnsupportedUriError extends BaseError {
  static override code = 'ERR_WALLET_URI_UNSUPPORTED'
  override name = 'UnsupportedUriError'
}

/**
 * A WalletConnect v2 link past its `expiryTimestamp` (the SDK gives a link five minutes): the dapp must show a new one.
 * The message says so in plain words and never repeats the link.
 */
export class ExpiredLinkError extends BaseError {
  static override code = 'ERR_WALLET_URI_EXPIRED'
  override name = 'ExpiredLinkError'
}

/**
 * geth's text for a transaction its sender cannot pay for; ethers (v5 and v6) and viem recognise it by this text, as
 * they do from a node. It is sent with EIP-1474's -32003 (transaction rejected), not geth's -32000: viem reads
 * -32000 from a wallet as "invalid input" and sends the transaction again as `wallet_sendTransaction`. Kept here, not
 * in `signRequest.ts`, so the request screen reads it without loading the signing code.
 */
export const INSUFFICIENT_FUNDS_MESSAGE = 'insufficient funds for gas * price + value'

/** How the wallet's answer begins when a transaction is for another chain than the one it is on. */
export const OTHER_CHAIN_MESSAGE = 'The wallet is on another chain'

/** An error's code and message, as the wallet shows or answers them. */
export type CodedError = { code: string | number; message: string }

const coded = (error: unknown): error is CodedError =>
  typeof error === 'object' &&
  error !== null &&
  (typeof (error as CodedError).code === 'string' || typeof (error as CodedError).code === 'number') &&
  typeof (error as CodedError).message === 'string'

/**
 * The first error of the `cause` chain, the error itself included, that carries one of `codes`; without `codes`,
 * the first Pairlink error (an `ERR_*` code). Codes decide, never class identity or message texts.
 *
 * @example
 * findError(error, IncompleteUriError.code)?.message
 */
export function findError(error: unknown, ...codes: (string | number)[]): CodedError | undefined {
  const found = walkError(
    error,
    (e) =>
      coded(e) &&
      (codes.length ? codes.includes(e.code) : typeof e.code === 'string' && e.code.startsWith('ERR_')),
  )
  return (found as CodedError | null) ?? undefined
}

/**
 * The first JSON-RPC / EIP-1193 error (a numeric code) of the `cause` chain: what the wallet answers the dapp.
 *
 * @example
 * const rpc = findRpcError(error); if (rpc) await client.rejectRequest({ id, error: rpc })
 */
export function findRpcError(error: unknown): { code: number; message: string } | undefined {
  const found = walkError(error, (e) => coded(e) && typeof e.code === 'number')
  return (found as { code: number; message: string } | null) ?? undefined
}
