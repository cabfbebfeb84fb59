import { payloadId } from '@pairlink/protocol'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { deleteSession, dropTopic, getInternal, publish, save } from '../internal.js'
import type { ErrorResponse } from '../types.js'

/** Parameters of {@link disconnect}. */
export type DisconnectParameters = {
  /** A session topic (`wc_sessionDelete`) or a pairing topic (`wc_pairingDelete`). */
  topic: string
  /** @default the SDK's USER_DISCONNECTED, `{ code: 6000, message: 'User disconnected.' }` */
  reason?: ErrorResponse | undefined
}

/**
 * Either role: ends a session (or a pairing) on both sides. The peer is told once the relay has the message; this
 * side forgets the session, its key and its topic at once. No `session_delete` is emitted locally.
 *
 * @example
 * await disconnect(client, { topic: session.topic })
 */
export async function disconnect(client: SignClient, parameters: DisconnectParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, reason = SDK_ERRORS.USER_DISCONNECTED } = parameters
  const { sessions, pairings } = internal.state
  const method = sessions[topic] ? 'wc_sessionDelete' : pairings[topic] ? 'wc_pairingDelete' : undefined
  if (!method) throw new SignError(SIGN_ERRORS.NO_SESSION)
  await publish(internal, topic, { id: payloadId(), jsonrpc: '2.0', method, params: reason }, method)
  if (sessions[topic]) return deleteSession(internal, topic, SDK_ERRORS.USER_DISCONNECTED)
  delete pairings[topic]
  dropTopic(internal, topic)
  save(internal)
}
