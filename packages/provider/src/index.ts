export {
  type Block,
  type BlockTracker,
  type BlockTrackerParameters,
  createBlockTracker,
  HIDDEN_POLLING_FACTOR,
} from './blockTracker.js'
export {
  BLOCK_FETCH_RETRIES,
  BLOCK_FETCH_RETRY_DELAY_MS,
  BLOCK_POLLING_INTERVAL_MS,
  HTTP_TIMEOUT_MS,
} from './constants.js'
export {
  type CreateProviderParameters,
  createProvider,
  type Provider,
  type ProviderEvents,
} from './createProvider.js'
export {
  BlockNotFoundError,
  ChainDisconnectedError,
  ConnectionRefusedError,
  DisconnectedError,
  HttpRequestError,
  InvalidProviderParametersError,
  type ProviderErrorParameters,
  UnauthorizedError,
  UnrecognizedChainError,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from './errors.js'
export {
  createHttpConnection,
  type HttpConnection,
  type HttpConnectionParameters,
  type RequestArguments,
} from './httpConnection.js'
export type { LegacyPayload, LegacyResponse, LegacySend } from './legacySend.js'
export type { Log, LogFilter } from './logSubscription.js'
export type { RequestStatus, RequestStatusEvent, RequestStatusEvents } from './requestStatus.js'
export type { ProviderClient } from './session.js'
export {
  type CreateV2ClientParameters,
  createV2Client,
  type V2AuthenticateParameters,
  type V2Client,
  type V2ConnectParameters,
  type V2ConnectReturnType,
} from './v2Client.js'
