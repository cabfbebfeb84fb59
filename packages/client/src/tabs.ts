import { SessionError, type SocketMessage, type StoredSession } from '@pairlink/protocol'
import { isObject } from './receive.js'
import { announceConnected, endSession, getTransport, type Internal, restore } from './session.js'
import { parseStoredSession } from './storage.js'

/**
 * Handles a message from another tab of the dapp that shares this session through the storage's channel
 * (`TabMessage`). Each tab has its own socket on the session's topic; these messages keep the tabs' state alike:
 *
 * - a `session`: another tab connected → this one takes the session (its `connect` event; a pairing of its own is
 *   dropped, its modal closed and its `connect()` resolved with that session); the wallet updated the session → this
 *   tab follows (its `session_update` event) unless its own socket told it already.
 * - a `clientId` and `message`: the session ended in another tab (its Disconnect, or the wallet's kill) → this tab's
 *   `disconnect` event, with the same message; the wallet is not told again.
 * - a `frame`: a response another tab's socket got and no request there waited for (the bridge hands a frame to every
 *   live socket of the topic and queues none while one is live, so a tab whose socket is down would lose it).
 *
 * Anything else, or a message about another session, is ignored.
 */
export function handleTabMessage(internal: Internal, data: unknown): void {
  // Structured clones from any script of the origin: a `null` or a number has no such fields.
  const { frame, message, session, clientId } = (data ?? {}) as Record<string, unknown>
  if (isObject(frame)) internal.onFrame(internal, frame as SocketMessage, true)
  else if (typeof message === 'string') {
    if (internal.connected && clientId === internal.clientId)
      endSession(internal, message, new SessionError(message), true)
  } else {
    // Anything but a stored session's JSON text parses to `undefined`.
    const stored = parseStoredSession(session as string | undefined)
    if (stored?.connected === true) follow(internal, stored)
  }
}

function follow(internal: Internal, session: StoredSession): void {
  const connected = internal.connected
  if (connected && (session.clientId !== internal.clientId || session.key !== internal.key)) return
  const before = `${internal.chainId}${internal.accounts}`
  restore(internal, session)
  if (!connected) {
    // A socket already open for this tab's own pairing subscribed its own topics only. (A closed one opens, sends this
    // and its subscriptions: the bridge takes the same `sub` twice as once.)
    getTransport(internal).send({ topic: internal.clientId, type: 'sub', payload: '', silent: true })
    announceConnected(internal)
  } else if (`${internal.chainId}${internal.accounts}` !== before)
    internal.emitter.emit('session_update', { chainId: internal.chainId, accounts: internal.accounts })
}
