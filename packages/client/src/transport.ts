import { formatSocketMessage, parseSocketMessage, type SocketMessage } from '@pairlink/protocol'
import {
  createSocket,
  type ReconnectOptions,
  type TransportState,
  type WebSocketConstructor,
} from './socket.js'

/** Parameters of {@link createTransport}. */
export type CreateTransportParameters = {
  /** The `ws:`/`wss:` URL, see {@link getWebSocketUrl}. */
  url: string
  /** @default globalThis.WebSocket, else the `ws` package (Node) */
  WebSocket?: WebSocketConstructor | undefined
  /** Topics to subscribe on every open, read at open time (own clientId, a pending handshake topic). */
  subscriptions: () => string[]
  /** Called with every well-formed frame. */
  onMessage: (message: SocketMessage) => void
  /** Called with every frame that is not a bridge message. */
  onMalformed?: (() => void) | undefined
  onStateChange?: ((state: TransportState) => void) | undefined
  /** Called when an attempt to open the socket failed (refused, or timed out) and a retry is scheduled. */
  onAttemptFailed?: (() => void) | undefined
  reconnect?: ReconnectOptions | undefined
  /** Source of jitter. @default Math.random */
  random?: (() => number) | undefined
}

/** A bridge connection that queues while closed and reconnects by itself. */
export type Transport = {
  readonly state: TransportState
  /** How many times the socket was re-opened after being lost: the first open after a loss counts 1 (`socket.ts`). */
  readonly reconnects: number
  /** Sends a frame, or queues it and opens the socket when it is not open. */
  send(message: SocketMessage): void
  /** Opens the socket if it is not open or opening. */
  open(): void
  /**
   * Closes the socket for good (no reconnect) until the next `send`/`open`. Queued frames are dropped, unless
   * `flushWithin` gives them that many milliseconds to be delivered first (a session's last word, its kill, must not
   * be lost to a bridge that is down for a moment).
   */
  close(options?: { flushWithin?: number | undefined }): void
}

// Far more frames than any session produces while offline; a bound keeps a dead bridge from growing memory forever.
const MAX_QUEUE = 1000

/**
 * The socket URL of a bridge (reference §3.1): `http`→`ws`, `https`→`wss`, then v1's query `env`, `host` (browsers),
 * `protocol=wc`, `version=1`. Unlike 1.8.0, which dropped them, the bridge URL's own query parameters are kept.
 *
 * @example
 * getWebSocketUrl('https://bridge.example/?region=eu') // 'wss://bridge.example/?region=eu&env=node&protocol=wc&version=1'
 */
export function getWebSocketUrl(bridge: string, environment: { host?: string | undefined } = {}): string {
  const url = bridge.replace(/^http/, 'ws')
  const question = url.indexOf('?')
  const base = question === -1 ? url : url.slice(0, question)
  const own = question === -1 ? '' : url.slice(question + 1)
  const { host } = environment
  const env = host === undefined ? 'node' : `browser&host=${encodeURIComponent(host)}`
  return `${base}?${own ? `${own}&` : ''}env=${env}&protocol=wc&version=1`
}

/**
 * Keeps a bridge socket (reference §3.6, with v1's flaws fixed) on {@link createSocket}, which reopens it with
 * backoff and counts the re-opens: frames sent while closed are queued and flushed on open, followed by the
 * subscriptions (v1 order).
 *
 * @example
 * const transport = createTransport({ url, subscriptions: () => [clientId], onMessage })
 */
export function createTransport(parameters: CreateTransportParameters): Transport {
  const { subscriptions, onMessage, onMalformed } = parameters
  let queue: string[] = []
  let closeWhenFlushed = false
  let flushTimer: ReturnType<typeof setTimeout> | undefined

  const socket = createSocket({
    ...parameters,
    url: () => parameters.url,
    onOpen(ws) {
      // v1 order (§3.6): queued frames first, then the subscriptions.
      const frames = queue
      queue = []
      for (const frame of frames) ws.send(frame)
      if (closeWhenFlushed) return transport.close()
      for (const topic of subscriptions())
        ws.send(formatSocketMessage({ topic, type: 'sub', payload: '', silent: true }))
    },
    onMessage(data) {
      const message = typeof data === 'string' ? parseSocketMessage(data) : undefined
      if (message) onMessage(message)
      else onMalformed?.()
    },
  })

  /** A new frame or open means the transport is wanted again: a deferred close no longer applies. */
  function keep() {
    if (!closeWhenFlushed) return
    closeWhenFlushed = false
    clearTimeout(flushTimer)
  }

  // The socket itself is the transport (its state and counter read through); send, open and close keep the queue.
  const { send, open, close } = socket
  const transport: Transport = Object.assign(socket, {
    send(message: SocketMessage) {
      keep()
      const frame = formatSocketMessage(message)
      if (send(frame)) return
      if (queue.length >= MAX_QUEUE) queue.shift()
      queue.push(frame)
    },
    open() {
      keep()
      open()
    },
    close(options: { flushWithin?: number | undefined } = {}) {
      if (options.flushWithin && queue.length > 0 && !closeWhenFlushed) {
        closeWhenFlushed = true
        flushTimer = setTimeout(() => transport.close(), options.flushWithin)
        return
      }
      closeWhenFlushed = false
      clearTimeout(flushTimer)
      // Before the state changes: a listener of `closed` that sends starts afresh.
      queue = []
      close()
    },
  })
  return transport
}
