export type { Listener } from '@pairlink/protocol'
export { type ApproveRequestParameters, approveRequest } from './actions/approveRequest.js'
export { type ApproveSessionParameters, approveSession } from './actions/approveSession.js'
export { close } from './actions/close.js'
export { type ConnectParameters, connect } from './actions/connect.js'
export { type CreateSessionParameters, createSession } from './actions/createSession.js'
export { type KillSessionParameters, killSession } from './actions/killSession.js'
export { type RejectRequestParameters, rejectRequest } from './actions/rejectRequest.js'
export { type RejectSessionParameters, rejectSession } from './actions/rejectSession.js'
export { type RequestOptions, type RequestParameters, request } from './actions/request.js'
export { type SendTransactionParameters, sendTransaction } from './actions/sendTransaction.js'
export { type SignMessageParameters, signMessage } from './actions/signMessage.js'
export { type SignPersonalMessageParameters, signPersonalMessage } from './actions/signPersonalMessage.js'
export { type SignTransactionParameters, signTransaction } from './actions/signTransaction.js'
export { type SignTypedDataParameters, signTypedData } from './actions/signTypedData.js'
export { type UpdateSessionParameters, updateSession } from './actions/updateSession.js'
export {
  type Client,
  type ClientBase,
  type ClientEvents,
  type ClientStats,
  type ConnectReturnType,
  type CreateClientParameters,
  createClient,
  type ModalAdapter,
} from './createClient.js'
export { type DappActions, type DappClient, dappActions } from './decorators/dappActions.js'
export { type WalletActions, type WalletClient, walletActions } from './decorators/walletActions.js'
export { ClientClosedError, InvalidClientOptionsError, RequestTimeoutError } from './errors.js'
export type { OnRequestStatus, RequestStatus, RequestStatusEvent } from './requestStatus.js'
export {
  createFileStorage,
  createLocalStorage,
  createMemoryStorage,
  type SessionStorage,
  type TabChannel,
} from './storage.js'
export {
  getReconnectDelay,
  getWebSocketUrl,
  type ReconnectOptions,
  type TransportState,
  type WebSocketConstructor,
  type WebSocketLike,
} from './transport.js'
