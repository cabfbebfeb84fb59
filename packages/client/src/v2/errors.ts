import {
  BaseError,
  WALLETCONNECT_DASHBOARD_URL as DASHBOARD,
  getRelayRefusalKind,
  type RelayRefusalKind,
} from '@pairlink/protocol/v2'
import type { ErrorResponse } from './types.js'

/**
 * The SDK's error objects (`getSdkError` of @walletconnect/utils 2.25), the ones the Sign protocol puts on the wire.
 * Peers compare `code`; the messages are the SDK's, byte for byte.
 */
export const SDK_ERRORS = {
  INVALID_METHOD: { code: 1001, message: 'Invalid method.' },
  INVALID_EVENT: { code: 1002, message: 'Invalid event.' },
  INVALID_UPDATE_REQUEST: { code: 1003, message: 'Invalid update request.' },
  INVALID_SESSION_SETTLE_REQUEST: { code: 1005, message: 'Invalid session settle request.' },
  UNAUTHORIZED_UPDATE_REQUEST: { code: 3003, message: 'Unauthorized update request.' },
  USER_REJECTED: { code: 5000, message: 'User rejected.' },
  UNSUPPORTED_CHAINS: { code: 5100, message: 'Unsupported chains.' },
  UNSUPPORTED_METHODS: { code: 5101, message: 'Unsupported methods.' },
  UNSUPPORTED_EVENTS: { code: 5102, message: 'Unsupported events.' },
  UNSUPPORTED_ACCOUNTS: { code: 5103, message: 'Unsupported accounts.' },
  UNSUPPORTED_NAMESPACE_KEY: { code: 5104, message: 'Unsupported namespace key.' },
  USER_DISCONNECTED: { code: 6000, message: 'User disconnected.' },
  SESSION_SETTLEMENT_FAILED: { code: 7000, message: 'Session settlement failed.' },
  WC_METHOD_UNSUPPORTED: { code: 10001, message: 'Unsupported wc_ method.' },
} as const satisfies Record<string, ErrorResponse>

/** The relay refused a call, did not answer it in time, or the connection was closed while it waited. */
export class RelayError extends BaseError {
  static override code = 'ERR_RELAY'
  override name = 'RelayError'
  constructor(message: string, code?: unknown) {
    super(message, { code: typeof code === 'number' || typeof code === 'string' ? code : 'ERR_RELAY' })
  }
}

/** Why a relay refused this client, read from its close reason ({@link RelayRefusedError}). */
export type { RelayRefusalKind }

/**
 * The relay refused this client: it closed the socket with code 3000 or 4000–4999 (WalletConnect's relay: "Project
 * ID is missing", "Project not found", "Unauthorized: origin not allowed"), or, in Node, refused the upgrade with
 * HTTP 401/403 (`closeCode` is then that status). It would refuse again, so the client stops and does not reconnect
 * by itself; the fix is the project id or the project's allowed origins (https://dashboard.reown.com).
 */
export class RelayRefusedError extends RelayError {
  static override code = 'ERR_RELAY_REFUSED'
  override name = 'RelayRefusedError'
  /** The WebSocket close code (3000, 4xxx), or the HTTP status of a refused upgrade (401, 403). */
  closeCode: number
  /** The relay's own words (a close reason is at most 123 bytes); `''` when it gave none. */
  reason: string
  kind: RelayRefusalKind
  constructor(parameters: { closeCode: number; reason: string }) {
    const { closeCode, reason } = parameters
    const kind = getRelayRefusalKind(reason)
    super(
      `Relay refused the connection (${closeCode}${reason ? `: ${reason}` : ''}). ${FIXES[kind]}`,
      RelayRefusedError.code,
    )
    this.closeCode = closeCode
    this.reason = reason
    this.kind = kind
  }
}

const FIXES: Record<RelayRefusalKind, string> = {
  'project-missing': `Set a project id (${DASHBOARD}).`,
  'project-unknown': `Check the project id (${DASHBOARD}).`,
  origin: `Add this page's origin to the project's allowed origins (${DASHBOARD}).`,
  other: `Check the project id and the project's allowed origins (${DASHBOARD}).`,
}

/**
 * The peer answered with a JSON-RPC error (`code` is the peer's: 5000 user rejected, 5100 unsupported chains, 6000
 * disconnected, …), or a call could not be made on the session; `data` is the peer's, when it sent one.
 */
export class SignError extends BaseError {
  static override code = 'ERR_SIGN'
  override name = 'SignError'
  data: unknown
  constructor(error: ErrorResponse | { code: string; message: string }) {
    super(error.message, { code: error.code })
    this.data = 'data' in error ? error.data : undefined
  }
}

/** Codes of {@link SignError}s raised locally (not by the peer). */
export const SIGN_ERRORS = {
  NO_SESSION: { code: 'ERR_SESSION_UNKNOWN', message: 'No session with this topic' },
  NO_PROPOSAL: { code: 'ERR_PROPOSAL_UNKNOWN', message: 'No pending proposal with this id' },
  NO_REQUEST: { code: 'ERR_REQUEST_UNKNOWN', message: 'No pending request with this id on this topic' },
  NOT_CONTROLLER: {
    code: 'ERR_NOT_CONTROLLER',
    message: 'Only the wallet that controls the session may update it',
  },
  PAIRING_EXISTS: { code: 'ERR_PAIRING_EXISTS', message: 'Pairing already exists: use a new connection URI' },
  PAIRING_UNKNOWN: { code: 'ERR_PAIRING_UNKNOWN', message: 'No active pairing with this topic' },
  PROPOSAL_EXPIRED: { code: 'ERR_PROPOSAL_EXPIRED', message: 'Proposal expired' },
  PROPOSAL_ABANDONED: { code: 'ERR_PROPOSAL_ABANDONED', message: 'Proposal abandoned' },
  REQUEST_EXPIRED: { code: 'ERR_REQUEST_EXPIRED', message: 'Request expired. Please try again.' },
  CLIENT_CLOSED: { code: 'ERR_CLIENT_CLOSED', message: 'Client closed' },
  NO_AUTH_REQUEST: { code: 'ERR_AUTH_REQUEST_UNKNOWN', message: 'No pending auth request with this id' },
  NO_AUTHS: { code: 'ERR_AUTHS_MISSING', message: 'Approve with at least one signed CACAO' },
} as const
