import { BaseError, PROVIDER_ERROR_CODES, RpcError } from '@pairlink/protocol'

/**
 * The person rejected the request in the wallet (EIP-1193 4001). Also what closing the QR-code modal gives
 * (`User closed modal`, the v1 text).
 */
export class UserRejectedRequestError extends RpcError {
  override name = 'UserRejectedRequestError'
  constructor(message: string, data?: unknown) {
    super(message, { code: PROVIDER_ERROR_CODES.USER_REJECTED, data })
  }
}

/** The account (`from`) or method is not authorised by the session (EIP-1193 4100). */
export class UnauthorizedError extends RpcError {
  override name = 'UnauthorizedError'
  constructor(message: string) {
    super(message, { code: PROVIDER_ERROR_CODES.UNAUTHORIZED })
  }
}

/** The provider cannot serve this method (EIP-1193 4200). The message names the method. */
export class UnsupportedMethodError extends RpcError {
  override name = 'UnsupportedMethodError'
  constructor(message: string) {
    super(message, { code: PROVIDER_ERROR_CODES.UNSUPPORTED_METHOD })
  }
}

/** No session: a wallet method was called while disconnected, or the session ended (EIP-1193 4900). */
export class DisconnectedError extends RpcError {
  override name = 'DisconnectedError'
  constructor(message: string, data?: unknown) {
    super(message, { code: PROVIDER_ERROR_CODES.DISCONNECTED, data })
  }
}

/** The wallet is not on the chain asked for, or there is no RPC URL for the chain (EIP-1193 4901). */
export class ChainDisconnectedError extends RpcError {
  override name = 'ChainDisconnectedError'
  constructor(message: string) {
    super(message, { code: PROVIDER_ERROR_CODES.CHAIN_DISCONNECTED })
  }
}

/**
 * The JSON-RPC node could not be reached or gave no JSON-RPC answer: time-out, network failure, an HTTP status
 * other than 2xx, a body that is not JSON. JSON-RPC -32603 (internal error); `details` says which, `status` holds
 * the HTTP status when there was one. The message names the method, never the request body or the URL (an RPC
 * URL often carries an API key).
 */
export class HttpRequestError extends RpcError {
  override name = 'HttpRequestError'
  status: number | undefined
  constructor(message: string, parameters: { details: string; status?: number; cause?: unknown }) {
    super(message, { code: -32603, details: parameters.details, cause: parameters.cause })
    this.status = parameters.status
  }
}

/** A block fetch still empty after every retry: the v1 text `Could not find block`, JSON-RPC -32001. */
export class BlockNotFoundError extends RpcError {
  override name = 'BlockNotFoundError'
  constructor(message: string, details: string) {
    super(message, { code: -32001, details })
  }
}

/** `createProvider` was given neither a `client` nor a `bridge`. */
export class InvalidProviderParametersError extends BaseError {
  static override code = 'ERR_PROVIDER_PARAMETERS'
  override name = 'InvalidProviderParametersError'
}
