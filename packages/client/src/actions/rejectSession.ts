import { SessionError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { endSession, getInternal, publish } from '../session.js'

/** Parameters of {@link rejectSession}. */
export type RejectSessionParameters = {
  /** @default 'Session Rejected' */
  message?: string | undefined
}

/** Wallet: rejects the pending session request; both sides then emit `disconnect` with the message. */
export async function rejectSession(client: Client, parameters: RejectSessionParameters = {}): Promise<void> {
  const internal = getInternal(client)
  if (internal.connected) throw new SessionError(V1_ERRORS.SESSION_CONNECTED)
  if (!internal.peerId || !internal.handshakeId) {
    throw new SessionError('No session request to answer', { code: 'ERR_NO_SESSION_REQUEST' })
  }
  const message = parameters.message || V1_ERRORS.SESSION_REJECTED
  const response = { id: internal.handshakeId, jsonrpc: '2.0', error: { code: -32000, message } }
  return publish(internal, internal.peerId, response, true).then(() =>
    endSession(internal, message, new SessionRejectedError(message)),
  )
}
