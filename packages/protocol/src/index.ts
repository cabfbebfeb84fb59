export { checksumAddress, isAddress } from './address.js'
export {
  DEEPLINK_CHOICE_STORAGE_KEY,
  HMAC_LENGTH,
  IV_LENGTH,
  KEY_LENGTH,
  PROTOCOL_VERSION,
  SESSION_STORAGE_KEY,
  URI_PROTOCOL,
} from './constants.js'
export { createEmitter, type Emitter, type EmitterOptions, type Listener } from './createEmitter.js'
export { createSerialQueue, type SerialQueue } from './createSerialQueue.js'
export { decrypt, type EncryptParameters, encrypt, generateKey } from './envelope.js'
export {
  BaseError,
  type BaseErrorParameters,
  DecryptionError,
  formatRpcError,
  InvalidJsonRpcError,
  InvalidKeyError,
  InvalidTransactionError,
  InvalidUriError,
  ModalClosedError,
  ModalNotProvidedError,
  PROVIDER_ERROR_CODES,
  RpcError,
  type RpcErrorParameters,
  SessionError,
  SessionRejectedError,
  V1_ERRORS,
  walkError,
} from './errors.js'
export { bytesToHex, hexToBytes, isHex, strip0x, utf8ToHex } from './hex.js'
export { createTopic, payloadId } from './ids.js'
export {
  type ClientMeta,
  type Envelope,
  formatSocketMessage,
  isJsonRpcError,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcError,
  type JsonRpcErrorObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResult,
  parseSocketMessage,
  type SessionApproval,
  type SessionRequest,
  type SessionRequestParams,
  type SessionUpdate,
  type SessionUpdateParams,
  type SocketMessage,
  type SocketMessageType,
  type StoredSession,
} from './messages.js'
export {
  ANSWERED_METHODS,
  APPROVAL_METHODS,
  type MethodEntry,
  type MethodTable,
} from './methods.js'
export {
  METHODS,
  type SelectedMethods,
  SIGNING_METHODS,
  selectMethods,
} from './methodTable.js'
export {
  normalizePersonalSign,
  normalizeTransaction,
  type QuantityInput,
  type TransactionInput,
  type WireTransaction,
} from './transaction.js'
export { type FormatUriParameters, formatUri, parseUri, splitUri, type Uri } from './uri.js'
