import type { WebSocketLike } from './socket.js'

// The SDK's limit in Node: a socket that heard nothing (no frame, no ping) for 35 s is dead (relay-v2.md §2).
const SILENCE_LIMIT = 35_000

/** What {@link watchHeartbeat} returns: `beat` on every frame, `stop` when the socket is done. */
export type Heartbeat = { beat(): void; stop(): void }

/**
 * Calls `onSilent` when a socket of the `ws` package (Node) has heard neither a frame nor one of the relay's pings for
 * 35 s: a half-open TCP connection never closes by itself. Browsers show no pings, so there it watches nothing (a
 * call that gets no answer reopens the socket instead).
 */
export function watchHeartbeat(ws: WebSocketLike, onSilent: () => void): Heartbeat {
  const node = ws as WebSocketLike & { on?: (event: 'ping', listener: () => void) => void }
  if (typeof node.on !== 'function') return { beat() {}, stop() {} }
  let timer: ReturnType<typeof setTimeout> | undefined
  const heartbeat: Heartbeat = {
    beat() {
      clearTimeout(timer)
      timer = setTimeout(onSilent, SILENCE_LIMIT)
      // A watch alone must not keep a Node process alive.
      ;(timer as { unref?: () => void }).unref?.()
    },
    stop: () => clearTimeout(timer),
  }
  node.on('ping', heartbeat.beat)
  return heartbeat
}
