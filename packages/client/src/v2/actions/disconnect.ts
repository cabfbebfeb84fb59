import { payloadId } from '@pairlink/protocol'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { deleteSession, dropTopic, enqueue, getInternal, save, seal } from '../internal.js'
import { flushOutbox } from '../outbox.js'
import type { ErrorResponse } from '../types.js'

/** Parameters of {@link disconnect}. */
export type DisconnectParameters = {
  /** A session topic (`wc_sessionDelete`) or a pairing topic (`wc_pairingDelete`). */
  topic: string
  /** @default the SDK's USER_DISCONNECTED, `{ code: 6000, message: 'User disconnected.' }` */
  reason?: ErrorResponse | undefined
}

/**
 * Either role: ends a session (or a pairing) on both sides. This side forgets the session, its key and its topic at
 * once, and keeps that in storage; the peer is told as soon as the relay takes the message. With the socket open,
 * this resolves once the relay has it; while the relay cannot be reached, it resolves at once and the message waits
 * in storage until a socket of this client (or of the next one on the same storage) opens. No `session_delete` is
 * emitted locally.
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
  // Sealed before the key goes; kept with the state, so a reload before the relay took it neither loses the message
  // nor brings the session back.
  const sealed = seal(internal, topic, { id: payloadId(), jsonrpc: '2.0', method, params: reason }, method)
  enqueue(internal, topic, sealed)
  if (sessions[topic]) {
    // The other tabs end it as this side's doing (`tab`), not the peer's.
    internal.tabs?.ended.add(topic)
    deleteSession(internal, topic, SDK_ERRORS.USER_DISCONNECTED)
  } else {
    delete pairings[topic]
    dropTopic(internal, topic)
    save(internal)
  }
  const sent = flushOutbox(internal)
  if (internal.relay.state === 'open') await sent
}
