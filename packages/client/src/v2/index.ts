// @pairlink/client/v2: the WalletConnect v2 Sign protocol, dapp and wallet roles. Nothing here is imported by the
// v1 entry (`@pairlink/client`), and each action is its own module: a dapp's bundle carries no wallet action.

export type { AuthPayload, Cacao, CacaoPayload } from '@pairlink/protocol/v2'
export type { OnRequestStatus, RequestStatus, RequestStatusEvent } from '../requestStatus.js'
export { type AbandonParameters, abandon } from './actions/abandon.js'
export { type ApproveParameters, type ApproveReturnType, approve } from './actions/approve.js'
export { type ApproveAuthenticateParameters, approveAuthenticate } from './actions/approveAuthenticate.js'
export {
  type AuthenticateParameters,
  type AuthenticateReturnType,
  authenticate,
} from './actions/authenticate.js'
export {
  type ConnectAuthentication,
  type ConnectParameters,
  type ConnectReturnType,
  connect,
} from './actions/connect.js'
export { type DisconnectParameters, disconnect } from './actions/disconnect.js'
export { type EmitParameters, emit } from './actions/emit.js'
export { type ExtendParameters, extend } from './actions/extend.js'
export { getPendingAuthRequests } from './actions/getPendingAuthRequests.js'
export { getPendingRequests, getSession, getSessions } from './actions/getSessions.js'
export { type PairParameters, pair } from './actions/pair.js'
export { type PingParameters, ping } from './actions/ping.js'
export { type RejectParameters, reject } from './actions/reject.js'
export { type RejectAuthenticateParameters, rejectAuthenticate } from './actions/rejectAuthenticate.js'
export { type RequestParameters, request } from './actions/request.js'
export { type RespondParameters, respond } from './actions/respond.js'
export { type UpdateParameters, update } from './actions/update.js'
export {
  type CreateSignClientParameters,
  createSignClient,
  type SignClient,
  type SignClientEvents,
  type SignClientStats,
} from './createSignClient.js'
export {
  RelayError,
  type RelayRefusalKind,
  RelayRefusedError,
  SDK_ERRORS,
  SIGN_ERRORS,
  SignError,
} from './errors.js'
export type {
  AuthenticateRequest,
  ErrorResponse,
  JsonRpcResponse,
  Metadata,
  Pairing,
  PendingAuthRequest,
  PendingRequest,
  Proposal,
  ProposalAuthentication,
  ProposalNamespace,
  ProposalRequests,
  ProposalRequestsResponses,
  Session,
  SessionEventParams,
  SessionNamespace,
  SessionRequestParams,
} from './types.js'
