import { SessionError, type SocketMessage } from '@pairlink/protocol'
import { endSession, getTransport, type Internal, restore } from './session.js'
import { parseStoredSession } from './storage.js'

/**
 * Handles a message from another tab of the dapp that shares this session through the storage's channel
 * (`TabMessage`). Each tab has its own socket on the session's topic; these messages keep the tabs' state alike:
 *
 * - `session`: another tab connected → this one takes the session (its `connect` event; a pairing of its own is
 *   dropped, its modal closed and its `connect()` resolved with that session); the wallet updated the session → this
 *   tab follows (its `session_update` event) unless its own socket told it already.
 * - `disconnect`: the session ended in another tab (its Disconnect, or the wallet's kill) → this tab's `disconnect`
 *   event, with the same message; the wallet is not told again.
 * - `frame`: a response another tab's socket got and no request there waited for (the bridge hands a frame to every
 *   live socket of the topic and queues none while one is live, so a tab whose socket is down would lose it).
 *
 * Anything else, or a message about another session, is ignored.
 */
export function handleTabMessage(internal: Internal, data: unknown): void {
  if (!isObject(data)) return
  if (data.type === 'frame') {
    if (isObject(data.frame)) internal.onFrame(internal, data.frame as SocketMessage, true)
  } else if (data.type === 'disconnect') {
    if (internal.connected && data.clientId === internal.clientId && typeof data.message === 'string')
      endSession(internal, data.message, new SessionError(data.message), true)
  } else if (data.type === 'session') {
    const session = parseStoredSession(typeof data.session === 'string' ? data.session : undefined)
    if (session?.connected === true) follow(internal, session)
  }
}

function follow(internal: Internal, session: NonNullable<ReturnType<typeof parseStoredSession>>): void {
  if (internal.connected) {
    if (session.clientId !== internal.clientId || session.key !== internal.key) return
    const accounts = Array.isArray(session.accounts) ? session.accounts : internal.accounts
    const chainId = typeof session.chainId === 'number' ? session.chainId : internal.chainId
    if (chainId === internal.chainId && accounts.join() === internal.accounts.join()) return
    internal.chainId = chainId
    internal.accounts = accounts
    internal.emitter.emit('session_update', { chainId, accounts })
    return
  }
  const handshake = internal.handshake
  const transport = internal.transport
  const subscribed = transport?.state === 'open'
  restore(internal, session)
  internal.handshake = undefined
  internal.uri = undefined
  internal.awaitingRequest = false
  // A socket already open (this tab was pairing) subscribed its old topic only: it needs the session's now.
  if (subscribed && transport === getTransport(internal))
    transport.send({ topic: internal.clientId, type: 'sub', payload: '', silent: true })
  else getTransport(internal).open()
  if (handshake) internal.modal?.close()
  const connected = {
    peerId: internal.peerId,
    peerMeta: internal.peerMeta,
    chainId: internal.chainId,
    accounts: internal.accounts,
  }
  internal.emitter.emit('connect', connected)
  handshake?.resolve(connected)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
