/** Type of a bridge socket frame (reference §3.2). Bridges ignore other types. */
export type SocketMessageType = 'pub' | 'sub' | 'ack'

/**
 * One text frame between a peer and the bridge: `{topic, type, payload, silent}` in that key order.
 * `payload` is the JSON-stringified envelope for `pub` and `""` for `sub`/`ack`.
 */
export type SocketMessage = {
  topic: string
  type: SocketMessageType
  payload: string
  /** `false` asks the bridge to call the topic's push webhooks. Missing in pre-2019 clients. */
  silent: boolean
}

/** The encrypted envelope: lowercase hex without `0x`, key order data, hmac, iv (reference §2). */
export type Envelope = {
  data: string
  hmac: string
  iv: string
}

/** Metadata a peer announces about itself (reference §4.3). */
export type ClientMeta = {
  description: string
  url: string
  icons: string[]
  name: string
}

/** A JSON-RPC 2.0 request. v1 ids are 16-digit integers from {@link payloadId}. */
export type JsonRpcRequest<params = unknown[]> = {
  id: number
  jsonrpc: '2.0'
  method: string
  params: params
}

/** The error object of a JSON-RPC 2.0 error response. */
export type JsonRpcErrorObject = {
  code: number
  message: string
  data?: unknown
}

/** A JSON-RPC 2.0 success response. */
export type JsonRpcResult<result = unknown> = {
  id: number
  jsonrpc: '2.0'
  result: result
}

/** A JSON-RPC 2.0 error response. */
export type JsonRpcError = {
  id: number
  jsonrpc: '2.0'
  error: JsonRpcErrorObject
}

/** A JSON-RPC 2.0 response: result or error. */
export type JsonRpcResponse<result = unknown> = JsonRpcResult<result> | JsonRpcError

/** Params of `wc_sessionRequest`, published by the dapp on the handshake topic. No `networkId` (reference §4.3). */
export type SessionRequestParams = {
  peerId: string
  peerMeta: ClientMeta | null
  chainId: number | null
}

/** The `wc_sessionRequest` request. */
export type SessionRequest = JsonRpcRequest<[SessionRequestParams]> & { method: 'wc_sessionRequest' }

/** The wallet's approval, the `result` of the response to the session request. Key order as v1 writes it. */
export type SessionApproval = {
  approved: true
  chainId: number
  networkId: number
  accounts: string[]
  rpcUrl: string
  peerId: string
  peerMeta: ClientMeta | null
}

/** Params of `wc_sessionUpdate`: `approved: true` updates the session, `approved: false` ends it. */
export type SessionUpdateParams =
  | { approved: true; chainId: number; networkId: number; accounts: string[]; rpcUrl: string }
  | { approved: false; chainId: null; networkId: null; accounts: null }

/** The `wc_sessionUpdate` request. No response is ever sent for it. */
export type SessionUpdate = JsonRpcRequest<[SessionUpdateParams]> & { method: 'wc_sessionUpdate' }

/** A session as v1 stores it in localStorage under `walletconnect` (reference §4.7), in this key order. */
export type StoredSession = {
  connected: boolean
  accounts: string[]
  chainId: number
  bridge: string
  key: string
  clientId: string
  clientMeta: ClientMeta | null
  peerId: string
  peerMeta: ClientMeta | null
  handshakeId: number
  handshakeTopic: string
}

/** Whether a value is a JSON-RPC request (has a string `method`). */
export function isJsonRpcRequest(value: unknown): value is JsonRpcRequest {
  return isObject(value) && typeof value.method === 'string'
}

/** Whether a value is a JSON-RPC response (has `result` or `error` and no `method`). */
export function isJsonRpcResponse(value: unknown): value is JsonRpcResponse {
  return isObject(value) && !('method' in value) && ('result' in value || 'error' in value)
}

/** Whether a JSON-RPC response is an error response. */
export function isJsonRpcError(value: JsonRpcResponse): value is JsonRpcError {
  return 'error' in value && isObject(value.error)
}

/**
 * Parses one bridge text frame into a {@link SocketMessage}, or returns `undefined` when it is not one
 * (not JSON, not an object, missing or wrong-typed fields). `silent` defaults to `false` when absent, as v1 bridges
 * treat a missing flag as "not silent".
 */
export function parseSocketMessage(text: string): SocketMessage | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isObject(value)) return undefined
  const { topic, type, payload, silent } = value
  if (typeof topic !== 'string' || typeof type !== 'string' || typeof payload !== 'string') return undefined
  if (silent !== undefined && typeof silent !== 'boolean') return undefined
  return { topic, type: type as SocketMessageType, payload, silent: silent ?? false }
}

/** Serialises a socket frame with v1's key order (topic, type, payload, silent). */
export function formatSocketMessage(message: SocketMessage): string {
  const { topic, type, payload, silent } = message
  return JSON.stringify({ topic, type, payload, silent })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
