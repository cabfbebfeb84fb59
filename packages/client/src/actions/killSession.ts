import { payloadId, SessionError, type SessionUpdate, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { endSession, getInternal, publish } from '../session.js'

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
  if (internal.connected && internal.peerId) {
    const kill: SessionUpdate = {
      id: payloadId(),
      jsonrpc: '2.0',
      method: 'wc_sessionUpdate',
      params: [{ approved: false, chainId: null, networkId: null, accounts: null }],
    }
    await publish(internal, internal.peerId, kill, true)
  }
  endSession(internal, message, new SessionError(message))
}
