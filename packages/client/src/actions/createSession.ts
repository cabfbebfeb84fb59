import {
  createTopic,
  formatUri,
  generateKey,
  payloadId,
  SessionError,
  type SessionRequest,
  V1_ERRORS,
} from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { InvalidClientOptionsError } from '../errors.js'
import { createDeferred, getClientId, getInternal, publish } from '../session.js'

/** Parameters of {@link createSession}. */
export type CreateSessionParameters = {
  /** The chain the dapp asks for; the wallet may approve another. @default null */
  chainId?: number | undefined
}

/**
 * Dapp: publishes `wc_sessionRequest` on a fresh handshake topic with a fresh key (reference §4.2–4.3), emits
 * `display_uri` and returns the `wc:` URI. While a request is pending it returns the same URI again.
 *
 * @example
 * const uri = await client.createSession({ chainId: 1 })
 */
export async function createSession(
  client: Client,
  parameters: CreateSessionParameters = {},
): Promise<string> {
  const internal = getInternal(client)
  await internal.ready
  if (internal.connected) throw new SessionError(V1_ERRORS.SESSION_CONNECTED)
  if (internal.handshake && internal.uri) return internal.uri
  if (!internal.bridge) throw new InvalidClientOptionsError(V1_ERRORS.MISSING_REQUIRED)
  internal.key = generateKey()
  internal.handshakeTopic = createTopic()
  internal.handshakeId = payloadId()
  internal.handshake = createDeferred()
  internal.handshakeAbandoned = false
  const uri = formatUri({ topic: internal.handshakeTopic, bridge: internal.bridge, key: internal.key })
  internal.uri = uri
  const request: SessionRequest = {
    id: internal.handshakeId,
    jsonrpc: '2.0',
    method: 'wc_sessionRequest',
    params: [
      { peerId: getClientId(internal), peerMeta: internal.clientMeta, chainId: parameters.chainId ?? null },
    ],
  }
  // The URI is shown while the request is still being encrypted (as v1 does): it is queued in order either way.
  const handshake = internal.handshake
  publish(internal, internal.handshakeTopic, request, true).catch((error: unknown) => handshake.reject(error))
  internal.emitter.emit('display_uri', { uri })
  return uri
}
