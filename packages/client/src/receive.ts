import {
  decrypt,
  isJsonRpcError,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  ModalClosedError,
  RpcError,
  type SessionApproval,
  SessionError,
  SessionRejectedError,
  type SessionRequestParams,
  type SocketMessage,
  V1_ERRORS,
} from '@pairlink/protocol'
import {
  announceConnected,
  endSession,
  getClientId,
  getTransport,
  type Internal,
  persist,
  publishKill,
  tellTabs,
} from './session.js'

/**
 * Handles one bridge frame: frames for other topics are ignored, envelopes that fail to decrypt or are not JSON-RPC
 * are dropped and counted — never thrown into the app. Frames are handled strictly in arrival order. A response no
 * request here waits for is passed to the other tabs of the session (unless it came `relayed` from one).
 */
export function handleFrame(internal: Internal, message: SocketMessage, relayed = false): void {
  if (message.type !== 'pub') return
  const ours =
    message.topic === internal.clientId ||
    (internal.awaitingRequest && message.topic === internal.handshakeTopic)
  if (!ours) {
    internal.stats.ignored++
    return
  }
  internal.stats.received++
  // v1 acknowledged every frame; bridges ignore acks, so they are off unless asked for.
  if (internal.ack)
    getTransport(internal).send({ topic: message.topic, type: 'ack', payload: '', silent: true })
  const key = internal.key
  void internal.incoming.add(async () => {
    let payload: unknown
    try {
      payload = await decrypt(message.payload, key)
    } catch {
      internal.stats.dropped++
      return
    }
    if (isJsonRpcRequest(payload) && typeof payload.id === 'number') handleRequest(internal, payload)
    else if (isJsonRpcResponse(payload) && typeof payload.id === 'number') {
      if (!handleResponse(internal, payload) && !relayed) tellTabs(internal, { frame: message })
    } else internal.stats.dropped++
  })
}

function handleRequest(internal: Internal, request: JsonRpcRequest): void {
  const params = Array.isArray(request.params) ? request.params : []
  if (request.method === 'wc_sessionRequest') handleSessionRequest(internal, request, params[0])
  else if (request.method === 'wc_sessionUpdate') handleSessionUpdate(internal, params[0])
  // Like v1, other `wc_` methods are reserved: never a call_request.
  else if (request.method.startsWith('wc_')) internal.stats.ignored++
  else
    internal.emitter.emit('call_request', { id: request.id, jsonrpc: '2.0', method: request.method, params })
}

function handleSessionRequest(internal: Internal, request: JsonRpcRequest, params: unknown): void {
  // Only a wallet waiting on its handshake topic takes a session request; a replay of the same one is ignored.
  if (
    !internal.awaitingRequest ||
    internal.connected ||
    internal.handshakeId === request.id ||
    !isObject(params)
  ) {
    internal.stats.ignored++
    return
  }
  const { peerId, peerMeta, chainId } = params as Partial<SessionRequestParams>
  if (typeof peerId !== 'string' || !peerId) {
    internal.stats.dropped++
    return
  }
  internal.handshakeId = request.id
  internal.peerId = peerId
  internal.peerMeta = peerMeta ?? null
  const requested = typeof chainId === 'number' ? chainId : null
  internal.emitter.emit('session_request', {
    id: request.id,
    peerId,
    peerMeta: peerMeta ?? null,
    chainId: requested,
  })
}

function handleSessionUpdate(internal: Internal, params: unknown): void {
  if (!isObject(params)) {
    internal.stats.dropped++
    return
  }
  if (params.approved !== true) {
    const message = V1_ERRORS.SESSION_DISCONNECTED_REMOTE
    endSession(internal, message, new SessionError(message))
    return
  }
  // v1 takes each field only when truthy (reference §4.3); networkId and rpcUrl are ignored.
  if (typeof params.chainId === 'number' && params.chainId) internal.chainId = params.chainId
  if (Array.isArray(params.accounts) && params.accounts.length)
    internal.accounts = params.accounts as string[]
  void persist(internal)
  internal.emitter.emit('session_update', { chainId: internal.chainId, accounts: internal.accounts })
}

/** Settles the request or handshake the response answers; `false` when nothing here waited for it. */
function handleResponse(internal: Internal, response: JsonRpcResponse): boolean {
  if (internal.handshake && response.id === internal.handshakeId && !internal.connected) {
    handleApproval(internal, response)
    return true
  }
  const pending = internal.pending.get(response.id)
  // v1 passed unclaimed responses to `call_request`; a late answer after a time-out is not a request, so it is dropped.
  if (!pending) {
    internal.stats.ignored++
    return false
  }
  internal.pending.delete(response.id)
  if (isJsonRpcError(response)) {
    const { code, message, data } = response.error
    pending.reject(
      new RpcError(typeof message === 'string' && message ? message : V1_ERRORS.DEFAULT_RPC_ERROR, {
        code: typeof code === 'number' ? code : -32000,
        data,
      }),
    )
  } else if ('result' in response) pending.resolve(response.result)
  else pending.reject(new RpcError(V1_ERRORS.INVALID_RESPONSE, { code: -32603 }))
  return true
}

function handleApproval(internal: Internal, response: JsonRpcResponse): void {
  if (!internal.handshake) return
  if (internal.handshakeAbandoned) {
    refuseApproval(internal, response)
    return
  }
  if (isJsonRpcError(response) || !isObject(response.result) || response.result.approved !== true) {
    const message = isJsonRpcError(response)
      ? response.error.message || V1_ERRORS.SESSION_REJECTED
      : // v1 registers the handshake with this fallback text (reference §4.6) and apps may match on it.
        V1_ERRORS.SESSION_UPDATE_REJECTED
    endSession(internal, message, new SessionRejectedError(message))
    return
  }
  const approval = response.result as Partial<SessionApproval>
  if (typeof approval.peerId !== 'string' || !approval.peerId) {
    internal.stats.dropped++
    return
  }
  internal.peerId ||= approval.peerId
  internal.peerMeta ??= approval.peerMeta ?? null
  if (typeof approval.chainId === 'number' && approval.chainId) internal.chainId = approval.chainId
  if (Array.isArray(approval.accounts)) internal.accounts = approval.accounts
  if (typeof approval.networkId === 'number') internal.networkId = approval.networkId
  if (typeof approval.rpcUrl === 'string') internal.rpcUrl = approval.rpcUrl
  internal.connected = true
  getClientId(internal)
  void persist(internal)
  announceConnected(internal)
}

/**
 * A wallet approved a handshake whose modal the person closed: it is told no at once, as a killed session
 * (`wc_sessionUpdate` with `approved: false`, its `disconnect`); nothing is connected or stored here.
 */
function refuseApproval(internal: Internal, response: JsonRpcResponse): void {
  const approval = isJsonRpcError(response) || !isObject(response.result) ? undefined : response.result
  const peerId = approval?.approved === true && typeof approval.peerId === 'string' ? approval.peerId : ''
  const handshake = internal.handshake
  internal.handshake = undefined
  internal.handshakeAbandoned = false
  internal.handshakeId = 0
  internal.handshakeTopic = ''
  if (peerId) publishKill(internal, peerId).catch(() => {})
  handshake?.reject(new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED))
}

/** A plain object (not `null`, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
