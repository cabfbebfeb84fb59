/**
 * Texts of the v1 clients that apps compare against, byte for byte (reference §5.1).
 * Never reword one: dapps and wallets built on the published v1 packages match on them.
 */
export const V1_ERRORS = {
  SESSION_CONNECTED: 'Session currently connected',
  SESSION_DISCONNECTED: 'Session currently disconnected',
  SESSION_REJECTED: 'Session Rejected',
  SESSION_DISCONNECTED_LOCAL: 'Session Disconnected',
  SESSION_DISCONNECTED_REMOTE: 'Session disconnected',
  SESSION_UPDATE_REJECTED: 'Session update rejected',
  SESSION_REQUEST_REJECTED: 'Session request rejected',
  MISSING_JSON_RPC: 'Missing JSON RPC response',
  MISSING_RESULT: 'JSON-RPC success response must include "result" field',
  MISSING_ERROR: 'JSON-RPC error response must include "error" field',
  MISSING_METHOD: 'JSON RPC request must have valid "method" value',
  MISSING_ID: 'JSON RPC request must have valid "id" value',
  MISSING_REQUIRED: 'Missing one of the required parameters: bridge / uri / session',
  INVALID_RESPONSE: 'JSON RPC response format is invalid',
  INVALID_URI: 'URI format is invalid',
  INVALID_HANDSHAKE_TOPIC: 'Invalid or missing handshakeTopic parameter value',
  INVALID_BRIDGE: 'Invalid or missing bridge url parameter value',
  INVALID_KEY: 'Invalid or missing key parameter value',
  QRCODE_MODAL_NOT_PROVIDED: 'QRCode Modal not provided',
  QRCODE_MODAL_USER_CLOSED: 'User close QRCode Modal',
  WEBSOCKET_CONNECTION_FAILED: 'Websocket connection failed',
  DEFAULT_RPC_ERROR: 'Failed or Rejected Request',
  INVALID_TRANSACTION_FROM: "Transaction object must include a valid 'from' value.",
  MISSING_WEBSOCKET_URL: 'Missing or invalid WebSocket url',
  MISSING_TOPIC: 'Missing or invalid topic field',
  FAILED_TO_CREATE_SOCKET: 'Failed to create socket',
  SUBSCRIPTIONS_NOT_SUPPORTED: 'Subscriptions are not supported by this HTTP endpoint',
  PROVIDER_USER_CLOSED_MODAL: 'User closed modal',
  PROVIDER_MISSING_RPC: 'Missing one of the required parameters: rpc or infuraId',
  PROVIDER_HTTP_UNAVAILABLE: 'HTTP Connection not available',
  PROVIDER_FAILED_TO_GET_ACCOUNTS: 'Failed to get accounts',
  PROVIDER_CONNECTION_CLOSED: 'Connection closed',
  PROVIDER_CONNECTION_DISCONNECTED: 'Connection disconnected',
  COULD_NOT_FIND_BLOCK: 'Could not find block',
} as const

/** EIP-1193 provider error codes (reference §5.3). */
export const PROVIDER_ERROR_CODES = {
  USER_REJECTED: 4001,
  UNAUTHORIZED: 4100,
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900,
  CHAIN_DISCONNECTED: 4901,
} as const

/** Parameters of {@link BaseError}. */
export type BaseErrorParameters = {
  /** Machine-readable code: `ERR_*` for our own errors, a number for JSON-RPC / EIP-1193 errors. */
  code?: string | number | undefined
  /** Extra context for people reading logs. Must never hold a key, a full `wc:` URI or a plaintext. */
  details?: string | undefined
  /** The error this one wraps. */
  cause?: unknown
}

/**
 * The one base class of every Pairlink error. `message` is exactly the text given (v1 texts stay byte-exact);
 * `code` tells errors apart without matching on text, and {@link BaseError.walk} finds a code under wrappers.
 *
 * @example
 * try { parseUri(input) } catch (e) { if (e instanceof BaseError && e.code === 'ERR_URI_INVALID') … }
 */
export class BaseError extends Error {
  /** The code every instance of the class carries unless the constructor is given another. */
  static code: string | number = 'ERR_PAIRLINK'
  override name = 'PairlinkError'
  code: string | number
  details: string | undefined

  constructor(message: string, parameters: BaseErrorParameters = {}) {
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.code = parameters.code ?? (this.constructor as typeof BaseError).code
    this.details = parameters.details
  }

  /**
   * Walks the `cause` chain from this error down. Without `fn`, returns the deepest cause (this error when it
   * wraps none); with `fn`, returns the first error of the chain, this one included, for which `fn` is true, or
   * `null`. A cycle of causes ends the walk.
   *
   * @example
   * const rejected = error.walk((e) => (e as { code?: unknown }).code === 4001)
   */
  walk(): unknown
  walk(fn: (error: unknown) => boolean): unknown | null
  walk(fn?: (error: unknown) => boolean): unknown {
    return fn ? walkError(this, fn) : walkError(this)
  }
}

/**
 * {@link BaseError.walk} for any thrown value, ours or another library's (viem's errors, plain `Error`s): without
 * `fn`, the deepest cause; with `fn`, the first error of the `cause` chain, the value itself included, for which
 * `fn` is true, or `null`. A cycle of causes ends the walk.
 *
 * @example
 * const rejected = walkError(error, (e) => (e as { code?: unknown }).code === 4001) // however deep viem wrapped it
 */
export function walkError(error: unknown): unknown
export function walkError(error: unknown, fn: (error: unknown) => boolean): unknown | null
export function walkError(error: unknown, fn?: (error: unknown) => boolean): unknown {
  const seen = new Set<unknown>()
  let current = error
  while (true) {
    seen.add(current)
    if (fn?.(current)) return current
    const cause =
      typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined
    if (cause === undefined || cause === null || seen.has(cause)) return fn ? null : current
    current = cause
  }
}

/** A `wc:` URI that cannot start a session. The message is one of the v1 texts of §1.3. */
export class InvalidUriError extends BaseError {
  static override code = 'ERR_URI_INVALID'
  override name = 'InvalidUriError'
}

/**
 * An envelope that failed to authenticate or decrypt. Every cause (bad MAC, bad padding, bad hex, wrong sizes,
 * wrong key, not JSON) gives this same error with the same message, so the outside learns nothing from it.
 */
export class DecryptionError extends BaseError {
  static override code = 'ERR_ENVELOPE_INVALID'
  override name = 'DecryptionError'
  constructor() {
    super('Unable to decrypt envelope')
  }
}

/** A key that is not 32 bytes of hex. The message never contains the key. */
export class InvalidKeyError extends BaseError {
  static override code = 'ERR_KEY_INVALID'
  override name = 'InvalidKeyError'
  constructor() {
    super('Key must be 32 bytes of hex (64 hex characters)')
  }
}

/** A call that needs a session while there is none, or that needs none while there is one. */
export class SessionError extends BaseError {
  static override code = 'ERR_SESSION'
  override name = 'SessionError'
}

/** The wallet rejected the session request. `message` is the wallet's own, or `Session Rejected`. */
export class SessionRejectedError extends BaseError {
  static override code = 'ERR_SESSION_REJECTED'
  override name = 'SessionRejectedError'
}

/** The person closed the QR-code modal before a wallet connected. */
export class ModalClosedError extends BaseError {
  static override code = 'ERR_QRCODE_MODAL_USER_CLOSED'
  override name = 'ModalClosedError'
}

/** `connect()` was called without a modal adapter. */
export class ModalNotProvidedError extends BaseError {
  static override code = 'ERR_QRCODE_MODAL_NOT_PROVIDED'
  override name = 'ModalNotProvidedError'
}

/** A JSON-RPC message without the fields it must have. The message is one of the v1 texts of §5.1. */
export class InvalidJsonRpcError extends BaseError {
  static override code = 'ERR_JSON_RPC_INVALID'
  override name = 'InvalidJsonRpcError'
}

/** A transaction that cannot be normalised (no valid `from`). */
export class InvalidTransactionError extends BaseError {
  static override code = 'ERR_TRANSACTION_INVALID'
  override name = 'InvalidTransactionError'
}

/** Parameters of {@link RpcError}. */
export type RpcErrorParameters = BaseErrorParameters & {
  code: number
  data?: unknown
}

/**
 * A JSON-RPC or EIP-1193 error with its numeric `code` (4001, 4100, 4200, 4900, 4901, -32xxx) and optional `data`,
 * the shape EIP-1193 consumers (viem, ethers) read.
 */
export class RpcError extends BaseError {
  static override code: string | number = 'ERR_RPC'
  override name = 'RpcError'
  declare code: number
  data: unknown

  constructor(message: string, parameters: RpcErrorParameters) {
    super(message, parameters)
    this.data = parameters.data
  }

  /** The error as a JSON-RPC error object. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

const V1_MESSAGE_CODES: Record<string, number> = {
  'Parse error': -32700,
  'Invalid request': -32600,
  'Method not found': -32601,
  'Invalid params': -32602,
  'Internal error': -32603,
}

/**
 * Builds the error object of a JSON-RPC error response. Unlike v1, which replaced every supplied code with -32000,
 * a supplied code is kept; without one, the message picks the code as v1 does (`Method not found` → -32601, …,
 * anything else -32000), and the message defaults to `Failed or Rejected Request`.
 */
export function formatRpcError(error: {
  code?: number | undefined
  message?: string | undefined
  data?: unknown
}): {
  code: number
  message: string
  data?: unknown
} {
  const message = error.message || V1_ERRORS.DEFAULT_RPC_ERROR
  const code = typeof error.code === 'number' ? error.code : (V1_MESSAGE_CODES[message] ?? -32000)
  return error.data === undefined ? { code, message } : { code, message, data: error.data }
}
