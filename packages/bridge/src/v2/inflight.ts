// The pushes of a socket awaiting their ack. A client acks each push before the next one is pushed to it, as a rule,
// so the newest sits in two fields of the socket's state, and a Map holds the older ones only when there are any:
// the usual push and ack touch no hash table.
import type { Conn } from './relayContext.js'
import type { StoredMessage } from './store.js'

// Pushes awaiting their ack per socket; beyond, the oldest is forgotten (it is pushed again on the next subscribe).
const MAX_INFLIGHT = 1_000

/** Records push `id` of `message` to `conn`, to be taken by its ack. */
export function trackPush(conn: Conn, id: number, message: StoredMessage): void {
  if (conn.newest !== undefined) {
    conn.inflight ??= new Map()
    const older = conn.inflight
    if (older.size >= MAX_INFLIGHT - 1) older.delete(older.keys().next().value as number)
    older.set(conn.newestId, conn.newest)
  }
  conn.newestId = id
  conn.newest = message
}

/** The message of push `id` to `conn`, no longer awaited; `undefined` when no push of that id awaits its ack. */
export function takePush(conn: Conn, id: number): StoredMessage | undefined {
  const { newest } = conn
  if (newest !== undefined && id === conn.newestId) {
    conn.newest = undefined
    return newest
  }
  const message = conn.inflight?.get(id)
  if (message) conn.inflight?.delete(id)
  return message
}

/** Forgets every push awaiting its ack (the socket closed). */
export function forgetPushes(conn: Conn): void {
  conn.newest = undefined
  conn.inflight = undefined
}
