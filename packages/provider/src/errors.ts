import type { RelayRefusalKind } from '@pairlink/client/v2'
import { BaseError, RpcError } from '@pairlink/protocol'

/** Parameters of the provider's EIP-1193 errors: the JSON-RPC `data` and the error wrapped, if any. */
export type ProviderErrorParameters = {
  /** The JSON-RPC error's `data`, as viem and ethers read it. */
  data?: unknown
  /** The error this one stands for (the client's, the wallet's), reachable by `walk()`. */
  cause?: unknown
}

/**
 * The person rejected the request in the wallet (EIP-1193 4001). Also what closing the QR-code modal gives
 * (`User closed modal`, the v1 text, with the client's `ModalClosedError` as `cause`).
 */
export class UserRejectedRequestError extends RpcError {
  static override code = 4001 as const
  override name = 'UserRejectedRequestError'
  declare code: typeof UserRejectedRequestError.code
  constructor(message: string, parameters: ProviderErrorParameters = {}) {
    super(message, { ...parameters, code: UserRejectedRequestError.code })
  }
}

/** The account (`from`) or method is not authorised by the session (EIP-1193 4100). */
export class UnauthorizedError extends RpcError {
  static override code = 4100 as const
  override name = 'UnauthorizedError'
  declare code: typeof UnauthorizedError.code
  constructor(message: string) {
    super(message, { code: UnauthorizedError.code })
  }
}

/** The provider cannot serve this method (EIP-1193 4200). The message names the method. */
export class UnsupportedMethodError extends RpcError {
  static override code = 4200 as const
  override name = 'UnsupportedMethodError'
  declare code: typeof UnsupportedMethodError.code
  constructor(message: string) {
    super(message, { code: UnsupportedMethodError.code })
  }
}

/** No session: a wallet method was called while disconnected, or the session ended (EIP-1193 4900). */
export class DisconnectedError extends RpcError {
  static override code = 4900 as const
  override name = 'DisconnectedError'
  declare code: typeof DisconnectedError.code
  constructor(message: string, parameters: ProviderErrorParameters = {}) {
    super(message, { ...parameters, code: DisconnectedError.code })
  }
}

/** The wallet is not on the chain asked for, or there is no RPC URL for the chain (EIP-1193 4901). */
export class ChainDisconnectedError extends RpcError {
  static override code = 4901 as const
  override name = 'ChainDisconnectedError'
  declare code: typeof ChainDisconnectedError.code
  constructor(message: string) {
    super(message, { code: ChainDisconnectedError.code })
  }
}

/**
 * The JSON-RPC node could not be reached or gave no JSON-RPC answer: time-out, network failure, an HTTP status
 * other than 2xx, a body that is not JSON. JSON-RPC -32603 (internal error); `details` says which, `status` holds
 * the HTTP status when there was one. The message names the method, never the request body or the URL (an RPC
 * URL often carries an API key).
 */
export class HttpRequestError extends RpcError {
  static override code = -32603 as const
  override name = 'HttpRequestError'
  declare code: typeof HttpRequestError.code
  status: number | undefined
  constructor(message: string, parameters: { details: string; status?: number; cause?: unknown }) {
    super(message, { code: HttpRequestError.code, details: parameters.details, cause: parameters.cause })
    this.status = parameters.status
  }
}

/** A block fetch still empty after every retry: the v1 text `Could not find block`, JSON-RPC -32001. */
export class BlockNotFoundError extends RpcError {
  static override code = -32001 as const
  override name = 'BlockNotFoundError'
  declare code: typeof BlockNotFoundError.code
  constructor(message: string, details: string) {
    super(message, { code: BlockNotFoundError.code, details })
  }
}

/** `createProvider` was given neither a `client` nor a `bridge`. */
export class InvalidProviderParametersError extends BaseError {
  static override code = 'ERR_PROVIDER_PARAMETERS'
  override name = 'InvalidProviderParametersError'
}

/**
 * `wallet_switchEthereumChain` to a chain the session does not hold (EIP-3326's 4902): over WalletConnect v2 the
 * wallet approved a set of chains at connection; the message names them, and so does `data.approvedChains`.
 */
export class UnrecognizedChainError extends RpcError {
  static override code = 4902 as const
  override name = 'UnrecognizedChainError'
  declare code: typeof UnrecognizedChainError.code
  /** `data.approvedChains`: the session's CAIP-2 chains, which an app can offer instead. */
  constructor(message: string, data: { approvedChains: string[] }) {
    super(message, { code: UnrecognizedChainError.code, data })
  }
}

/**
 * The v2 relay refused the dapp (`@pairlink/client/v2`'s `RelayRefusedError`, here as `cause`): a missing or unknown
 * project id, or a page origin the project does not allow. `enable()` and wallet requests reject with it and the
 * provider emits it as `relay_refused`; the client does not reconnect by itself, the next `enable()` tries once more.
 * Not an EIP-1193 error: `code` stays `ERR_RELAY_REFUSED` so a UI can tell it apart and name the fix
 * (https://dashboard.reown.com).
 */
export class ConnectionRefusedError extends BaseError {
  static override code = 'ERR_RELAY_REFUSED'
  override name = 'ConnectionRefusedError'
  /** The relay's close code (3000, 4xxx) or the HTTP status of a refused upgrade (401, 403). */
  closeCode: number
  /** The relay's words ("Project not found", "Unauthorized: origin not allowed", …). */
  reason: string
  /** What to fix: `'project-missing' | 'project-unknown' | 'origin' | 'other'`. */
  kind: RelayRefusalKind
  constructor(cause: Error & { closeCode: number; reason: string; kind: RelayRefusalKind }) {
    super(cause.message, { cause })
    this.closeCode = cause.closeCode
    this.reason = cause.reason
    this.kind = cause.kind
  }
}
