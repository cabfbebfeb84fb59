import { afterEach, expect, test, vi } from 'vitest'
import { watchHeartbeat } from './heartbeat.js'
import type { WebSocketLike } from './socket.js'

afterEach(() => {
  vi.useRealTimers()
})

/** The seam: a socket with `ws`'s `on('ping')`, whose pings the test plays. */
function nodeSocket() {
  const listeners: (() => void)[] = []
  const socket = { on: (_event: 'ping', listener: () => void) => listeners.push(listener) }
  return {
    socket: socket as unknown as WebSocketLike,
    ping: () => {
      for (const listener of listeners) listener()
    },
  }
}

test('default: a socket silent for 35 s is reported; frames and pings keep it alive', () => {
  vi.useFakeTimers()
  const { socket, ping } = nodeSocket()
  const onSilent = vi.fn()
  const heartbeat = watchHeartbeat(socket, onSilent)
  heartbeat.beat()
  vi.advanceTimersByTime(30_000)
  ping()
  vi.advanceTimersByTime(30_000)
  heartbeat.beat()
  vi.advanceTimersByTime(34_999)
  expect(onSilent).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(onSilent).toHaveBeenCalledOnce()
})

test('behavior: stop ends the watch; a browser socket (no pings to see) is never reported', () => {
  vi.useFakeTimers()
  const { socket } = nodeSocket()
  const onSilent = vi.fn()
  const heartbeat = watchHeartbeat(socket, onSilent)
  heartbeat.beat()
  heartbeat.stop()
  const browser = watchHeartbeat({} as WebSocketLike, onSilent)
  browser.beat()
  vi.advanceTimersByTime(100_000)
  expect(onSilent).not.toHaveBeenCalled()
})
