import { SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { endSession, getInternal, publishKill } from '../session.js'

/** Parameters of {@link killSession}. */
export type KillSessionParameters = {
  /** The local `disconnect` message. @default 'Session Disconnected' */
  message?: string | undefined
}

/**
 * Either side: ends the session. The peer gets `wc_sessionUpdate` with `approved: false` and emits `disconnect`
 * (`Session disconnected`); this side emits `disconnect` with the message, forgets the stored session and closes
 * the socket. Pending requests reject.
 *
 * @example
 * await client.killSession()
 */
export async function killSession(client: Client, parameters: KillSessionParameters = {}): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const message = parameters.message || V1_ERRORS.SESSION_DISCONNECTED_LOCAL
  if (internal.connected && internal.peerId) await publishKill(internal, internal.peerId)
  endSession(internal, message, new SessionError(message))
}
