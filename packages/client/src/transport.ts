import { formatSocketMessage, parseSocketMessage, type SocketMessage } from '@pairlink/protocol'

/** State of the bridge socket as the UI shows it. */
export type TransportState = 'connecting' | 'open' | 'closed'

/**
 * An event handler property. Declared as a method so that it is compared bivariantly: the DOM's handlers take DOM
 * events and `ws`'s take its own event classes, and neither is a supertype of the other.
 */
type Handler<event> = { handle(event: event): void }['handle']

/** The part of the WHATWG `WebSocket` the transport uses; browsers' and the `ws` package's both fit, uncast. */
export type WebSocketLike = {
  readonly readyState: number
  onopen: Handler<unknown> | null
  onclose: Handler<unknown> | null
  onerror: Handler<unknown> | null
  onmessage: Handler<{ data: unknown }> | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/**
 * A `WebSocket` constructor: `globalThis.WebSocket` (browsers, Node ≥ 22) or the `ws` package's default export.
 *
 * @example
 * import WebSocket from 'ws'
 * const client = createClient({ bridge, WebSocket })
 */
export type WebSocketConstructor = new (url: string) => WebSocketLike

/** Reconnect timing: exponential backoff with jitter. */
export type ReconnectOptions = {
  /** First retry delay, in ms; each failed attempt doubles it. @default 500 */
  minDelay?: number | undefined
  /** Longest delay between two attempts, in ms. @default 30000 */
  maxDelay?: number | undefined
  /** How long a socket may stay connecting before it is dropped and retried, in ms. @default 10000 */
  connectTimeout?: number | undefined
}

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
  /** How many times the socket was re-opened after being lost. */
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

const OPEN = 1
// Far more frames than any session produces while offline; a bound keeps a dead bridge from growing memory forever.
const MAX_QUEUE = 1000

/**
 * The delay before reconnect attempt `attempt` (0-based): `min(maxDelay, minDelay·2^attempt)`, of which the upper
 * half is random ("equal jitter"), so a bridge restart is not met by every client at the same instant.
 */
export function getReconnectDelay(
  attempt: number,
  options: ReconnectOptions = {},
  random: () => number = Math.random,
): number {
  const { minDelay = 500, maxDelay = 30_000 } = options
  const ceiling = Math.min(maxDelay, minDelay * 2 ** Math.min(attempt, 30))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

/**
 * The socket URL of a bridge (reference §3.1): `http`→`ws`, `https`→`wss`, then v1's query `env`, `host` (browsers),
 * `protocol=wc`, `version=1`. Unlike 1.8.0, which dropped them, the bridge URL's own query parameters are kept.
 *
 * @example
 * getWebSocketUrl('https://bridge.example/?region=eu') // 'wss://bridge.example/?region=eu&env=node&protocol=wc&version=1'
 */
export function getWebSocketUrl(bridge: string, environment: { host?: string | undefined } = {}): string {
  const url = bridge.startsWith('https')
    ? `wss${bridge.slice(5)}`
    : bridge.startsWith('http')
      ? `ws${bridge.slice(4)}`
      : bridge
  const question = url.indexOf('?')
  const base = question === -1 ? url : url.slice(0, question)
  const own = question === -1 ? '' : url.slice(question + 1)
  const query: [string, string][] =
    environment.host === undefined
      ? [['env', 'node']]
      : [
          ['env', 'browser'],
          ['host', environment.host],
        ]
  query.push(['protocol', 'wc'], ['version', '1'])
  const ours = query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')
  return `${base}?${own ? `${own}&` : ''}${ours}`
}

/**
 * Opens and keeps a bridge socket (reference §3.6, with v1's flaws fixed): frames sent while closed are queued and
 * flushed on open, followed by the subscriptions; a lost socket is reopened with exponential backoff and jitter
 * (v1: every second, forever), at once on the browser's `online` event.
 *
 * @example
 * const transport = createTransport({ url, subscriptions: () => [clientId], onMessage })
 */
export function createTransport(parameters: CreateTransportParameters): Transport {
  const {
    url,
    subscriptions,
    onMessage,
    onMalformed,
    onStateChange,
    onAttemptFailed,
    reconnect = {},
    random,
  } = parameters
  const { connectTimeout = 10_000 } = reconnect
  let socket: WebSocketLike | undefined
  let state: TransportState = 'closed'
  let wanted = false
  let attempt = 0
  let reconnects = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let queue: string[] = []
  let closeWhenFlushed = false
  let flushTimer: ReturnType<typeof setTimeout> | undefined

  const target = globalThis as {
    addEventListener?: typeof addEventListener
    removeEventListener?: typeof removeEventListener
  }
  const onOnline = () => {
    if (!wanted || state === 'open') return
    // The network is back: waiting out the backoff would only delay the session.
    clearTimeout(timer)
    attempt = 0
    connect()
  }

  function setState(next: TransportState) {
    if (next === state) return
    state = next
    onStateChange?.(next)
  }

  function drop(ws: WebSocketLike) {
    ws.onopen = ws.onclose = ws.onmessage = null
    // Not null: `ws` reports closing a still-connecting socket as an error event, and throws it when nobody listens.
    ws.onerror = () => {}
    try {
      ws.close()
    } catch {}
  }

  function scheduleReconnect() {
    clearTimeout(timer)
    const delay = getReconnectDelay(attempt++, reconnect, random)
    setState('connecting')
    timer = setTimeout(connect, delay)
  }

  async function connect() {
    clearTimeout(timer)
    if (socket) drop(socket)
    socket = undefined
    setState('connecting')
    let ws: WebSocketLike
    try {
      const Constructor = parameters.WebSocket ?? (await loadWebSocket())
      if (!wanted || socket) return
      ws = new Constructor(url)
    } catch {
      if (!wanted) return
      scheduleReconnect()
      return onAttemptFailed?.()
    }
    socket = ws
    const giveUp = setTimeout(() => {
      if (socket === ws && ws.readyState !== OPEN) lost(ws)
    }, connectTimeout)
    ws.onopen = () => {
      clearTimeout(giveUp)
      if (attempt > 0) reconnects++
      attempt = 0
      setState('open')
      // v1 order (§3.6): queued frames first, then the subscriptions.
      const frames = queue
      queue = []
      for (const frame of frames) ws.send(frame)
      if (closeWhenFlushed) return transport.close()
      for (const topic of subscriptions())
        ws.send(formatSocketMessage({ topic, type: 'sub', payload: '', silent: true }))
    }
    ws.onclose = () => {
      clearTimeout(giveUp)
      lost(ws)
    }
    // An error is always followed by close (WHATWG and ws); reconnecting happens there.
    ws.onerror = () => {}
    ws.onmessage = (event) => {
      const message = typeof event.data === 'string' ? parseSocketMessage(event.data) : undefined
      if (message) onMessage(message)
      else onMalformed?.()
    }
  }

  function lost(ws: WebSocketLike) {
    if (socket !== ws) return
    drop(ws)
    socket = undefined
    if (!wanted) return setState('closed')
    // An open socket that was lost is a drop; one that never opened is a failed attempt.
    const failed = state !== 'open'
    scheduleReconnect()
    if (failed) onAttemptFailed?.()
  }

  function open() {
    if (wanted) return
    wanted = true
    target.addEventListener?.('online', onOnline)
    void connect()
  }

  /** A new frame or open means the transport is wanted again: a deferred close no longer applies. */
  function keep() {
    if (!closeWhenFlushed) return
    closeWhenFlushed = false
    clearTimeout(flushTimer)
  }

  const transport: Transport = {
    get state() {
      return state
    },
    get reconnects() {
      return reconnects
    },
    send(message) {
      keep()
      const frame = formatSocketMessage(message)
      if (socket && state === 'open' && socket.readyState === OPEN) return socket.send(frame)
      if (queue.length >= MAX_QUEUE) queue.shift()
      queue.push(frame)
      open()
    },
    open() {
      keep()
      open()
    },
    close(options = {}) {
      if (options.flushWithin && queue.length > 0 && !closeWhenFlushed) {
        closeWhenFlushed = true
        flushTimer = setTimeout(() => transport.close(), options.flushWithin)
        return
      }
      closeWhenFlushed = false
      clearTimeout(flushTimer)
      wanted = false
      clearTimeout(timer)
      target.removeEventListener?.('online', onOnline)
      queue = []
      if (socket) drop(socket)
      socket = undefined
      attempt = 0
      setState('closed')
    },
  }
  return transport
}

let wsPromise: Promise<WebSocketConstructor> | undefined

/** `globalThis.WebSocket` when there is one (browsers, Node ≥ 22), else the `ws` package. */
export function loadWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
  if (global) return Promise.resolve(global)
  // A computed specifier keeps bundlers from pulling `ws` into browser builds.
  const name = 'ws'
  wsPromise ??= import(/* @vite-ignore */ name).then(
    (module: { default?: WebSocketConstructor; WebSocket?: WebSocketConstructor }) =>
      (module.default ?? module.WebSocket) as WebSocketConstructor,
  )
  return wsPromise
}
