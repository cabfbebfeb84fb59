import { generateKeyPair } from '@pairlink/protocol/v2'
import { SDK_ERRORS } from './errors.js'
import type { Internal } from './internal.js'
import { save } from './internal.js'
import { AUTH_ANSWER, publishToRequester } from './responseTopic.js'
import type { AuthenticateRequest, ErrorResponse } from './types.js'

const KEY_RE = /^[0-9a-f]{64}$/
const isString = (value: unknown): value is string => typeof value === 'string'

/**
 * Wallet: a dapp's one-click auth request (`wc_sessionAuthenticate`) on a pairing this wallet joined. Kept and emitted
 * as `session_authenticate` when the app listens for it; else refused at once with 10001 (WC_METHOD_UNSUPPORTED), so
 * the dapp goes on with its fallback proposal. A malformed one is refused (auto-reject, tag 1119).
 */
export async function onAuthenticateRequest(
  internal: Internal,
  topic: string,
  request: { id: number; params: unknown },
): Promise<void> {
  const { id } = request
  const pairing = internal.state.pairings[topic]
  const p = (request.params ?? {}) as Partial<AuthenticateRequest>
  const requesterPublicKey = p.requester?.publicKey
  // Without the dapp's key there is nowhere to answer.
  if (!pairing || !isString(requesterPublicKey) || !KEY_RE.test(requesterPublicKey)) return
  const refuse = (error: ErrorResponse) =>
    publishToRequester(internal, {
      requesterPublicKey,
      self: generateKeyPair(),
      payload: { id, jsonrpc: '2.0', error },
      options: AUTH_ANSWER.autoReject,
    })
  if (!isAuthenticateRequest(p)) return refuse(SDK_ERRORS.INVALID_METHOD)
  if (p.expiryTimestamp * 1000 <= Date.now()) return
  if (internal.emitter.listenerCount('session_authenticate') === 0)
    return refuse({
      ...SDK_ERRORS.WC_METHOD_UNSUPPORTED,
      message: `${SDK_ERRORS.WC_METHOD_UNSUPPORTED.message} wc_sessionAuthenticate`,
    })
  const params: AuthenticateRequest = {
    authPayload: p.authPayload,
    requester: { publicKey: requesterPublicKey, metadata: p.requester.metadata },
    expiryTimestamp: p.expiryTimestamp,
  }
  internal.state.authRequests[id] = { id, topic, params }
  pairing.peerMetadata = params.requester.metadata
  save(internal)
  internal.emitter.emit('session_authenticate', { id, topic, params })
}

function isAuthenticateRequest(p: Partial<AuthenticateRequest>): p is AuthenticateRequest {
  const auth = p.authPayload
  return (
    !!auth &&
    typeof auth === 'object' &&
    Array.isArray(auth.chains) &&
    auth.chains.length > 0 &&
    auth.chains.every(isString) &&
    [auth.domain, auth.aud, auth.nonce, auth.iat, auth.version].every(isString) &&
    (auth.resources === undefined || (Array.isArray(auth.resources) && auth.resources.every(isString))) &&
    !!p.requester?.metadata &&
    isString(p.requester.metadata.name) &&
    typeof p.expiryTimestamp === 'number'
  )
}
