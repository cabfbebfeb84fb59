export {
  type Block,
  type BlockTracker,
  type BlockTrackerParameters,
  createBlockTracker,
  HIDDEN_POLLING_FACTOR,
} from './blockTracker.js'
export {
  type CreateProviderParameters,
  createProvider,
  type Provider,
  type ProviderEvents,
} from './createProvider.js'
export {
  BlockNotFoundError,
  ChainDisconnectedError,
  DisconnectedError,
  HttpRequestError,
  InvalidProviderParametersError,
  UnauthorizedError,
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
export type { ProviderClient } from './session.js'
