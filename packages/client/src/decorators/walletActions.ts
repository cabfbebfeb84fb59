import { type ApproveRequestParameters, approveRequest } from '../actions/approveRequest.js'
import { type ApproveSessionParameters, approveSession } from '../actions/approveSession.js'
import { type RejectRequestParameters, rejectRequest } from '../actions/rejectRequest.js'
import { type RejectSessionParameters, rejectSession } from '../actions/rejectSession.js'
import { type UpdateSessionParameters, updateSession } from '../actions/updateSession.js'
import type { Client } from '../createClient.js'

/**
 * The wallet's members: answer the session request and the dapp's requests. `updateSession` lives here: v1 lets
 * either side send it, but only a wallet has accounts and a chain to switch to (a dapp asks for a switch with a
 * request); the stand-alone {@link updateSession} still works on any client.
 */
export type WalletActions = {
  /** Approves the pending session request; `connect` fires at once (see {@link approveSession}). */
  approveSession: (parameters: ApproveSessionParameters) => ReturnType<typeof approveSession>
  /** Rejects the pending session request; both sides then emit `disconnect` (see {@link rejectSession}). */
  rejectSession: (parameters?: RejectSessionParameters) => ReturnType<typeof rejectSession>
  /** Answers a `call_request` with a result (see {@link approveRequest}). */
  approveRequest: (parameters: ApproveRequestParameters) => ReturnType<typeof approveRequest>
  /** Answers a `call_request` with an error, keeping its code (see {@link rejectRequest}). */
  rejectRequest: (parameters: RejectRequestParameters) => ReturnType<typeof rejectRequest>
  /** Switches account or chain; both sides emit `session_update` (see {@link updateSession}). */
  updateSession: (parameters: UpdateSessionParameters) => ReturnType<typeof updateSession>
}

/** A client extended with {@link walletActions}: what `createClient(parameters).extend(walletActions)` returns. */
export type WalletClient = Client<WalletActions>

/**
 * Decorates a client with the wallet's actions, for `client.extend(walletActions)`.
 *
 * @example
 * const wallet = createClient({ uri, clientMeta }).extend(walletActions)
 * wallet.on('session_request', () => wallet.approveSession({ chainId: 1, accounts: [address] }))
 */
export function walletActions(client: Client): WalletActions {
  return {
    approveSession: (parameters) => approveSession(client, parameters),
    rejectSession: (parameters) => rejectSession(client, parameters),
    approveRequest: (parameters) => approveRequest(client, parameters),
    rejectRequest: (parameters) => rejectRequest(client, parameters),
    updateSession: (parameters) => updateSession(client, parameters),
  }
}
