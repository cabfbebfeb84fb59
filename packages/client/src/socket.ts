import type { Heartbeat } from './heartbeat.js'

/** State of a socket (v1: the bridge's, v2: the relay's) as the UI shows it. */
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

/** Parameters of {@link createSocket}: where and how to connect, and the framing's hooks. */
export type CreateSocketParameters = {
  /** The `ws:`/`wss:` URL, or a function making it afresh for every socket (v2: each carries a newly signed JWT). */
  url: string | (() => Promise<string>)
  /** @default globalThis.WebSocket, else the `ws` package (Node) */
  WebSocket?: WebSocketConstructor | undefined
  reconnect?: ReconnectOptions | undefined
  /** Source of jitter. @default Math.random */
  random?: (() => number) | undefined
  /** Watches each socket for silence (keep-alive); a silent one is lost. Beaten on open and on every frame. */
  heartbeat?: ((ws: WebSocketLike, onSilent: () => void) => Heartbeat) | undefined
  /** The socket opened (the state is `open` already): the framing sends what waited, and subscribes, on `ws`. */
  onOpen: (ws: WebSocketLike) => void
  /** A frame arrived on `ws` (the framing may answer on it, as v2 acks a push). */
  onMessage: (data: unknown, ws: WebSocketLike) => void
  /**
   * Told every error and close event: `true` when the framing took it as the server refusing this client and closed
   * the socket for good. Otherwise an error is let be (a close always follows it) and a close means the socket was
   * lost: it is reopened.
   */
  refused?: ((event: unknown) => boolean) | undefined
  onStateChange?: ((state: TransportState) => void) | undefined
  /** Called when an attempt to open the socket failed (refused, or timed out) and a retry is scheduled. */
  onAttemptFailed?: (() => void) | undefined
}

/** A socket kept open while wanted: both generations' transports frame their messages on it. */
export type Socket = {
  readonly state: TransportState
  /**
   * How many times the socket was re-opened after being lost: the first open after a loss counts 1. Opening after
   * attempts that never opened (the server down from the start) is no re-open, nor is {@link Socket.reopen}.
   */
  readonly reconnects: number
  /** Sends a frame when the socket is open; `false` when it is not (the framing keeps the frame and calls `open`). */
  send(frame: string): boolean
  /** Opens the socket if it is not open or opening. */
  open(): void
  /** A wanted socket is replaced by a new one at once (not counted as a re-open). */
  reopen(): void
  /** The open socket is taken as dead (it answers nothing, no close seen): it is lost, and reopened with backoff. */
  lose(): void
  /** Closes the socket for good (no reconnect) until the next `open`. */
  close(): void
}

const OPEN = 1

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
 * Opens and keeps one WebSocket, the part both generations share (v1 frames the bridge's pub/sub on it in
 * `transport.ts`, v2 the relay's JSON-RPC in `v2/relay.ts`): a socket that does not open within `connectTimeout` is
 * dropped, a lost one is reopened with {@link getReconnectDelay}'s backoff (v1 1.8.0: every second, forever), at once
 * on the browser's `online` event, a silent one (`heartbeat`) is lost too, and the re-opens are counted.
 *
 * @example
 * const socket = createSocket({ url, onOpen: (ws) => ws.send(hello), onMessage: (data) => handle(data) })
 * socket.open()
 */
export function createSocket(parameters: CreateSocketParameters): Socket {
  const { url, reconnect = {}, random, onStateChange, onAttemptFailed } = parameters
  const { connectTimeout = 10_000 } = reconnect
  let socket: WebSocketLike | undefined
  let state: TransportState = 'closed'
  let wanted = false
  let attempt = 0
  let reconnects = 0
  // An open socket was lost: the next open is a re-open.
  let dropped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  // The open socket's keep-alive.
  let heartbeat: Heartbeat | undefined

  const target = globalThis as {
    addEventListener?: typeof addEventListener
    removeEventListener?: typeof removeEventListener
  }
  // The network is back: waiting out the backoff would only delay the session.
  const onOnline = () => state === 'open' || reopen()

  function reopen() {
    if (!wanted) return
    attempt = 0
    void connect()
  }

  function setState(next: TransportState) {
    if (next === state) return
    state = next
    onStateChange?.(next)
  }

  function drop(ws: WebSocketLike) {
    heartbeat?.stop()
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
      // No await when both are given: the socket is made at once.
      const Constructor = parameters.WebSocket ?? (await loadWebSocket())
      const address = typeof url === 'string' ? url : await url()
      if (!wanted || socket) return
      ws = new Constructor(address)
    } catch {
      if (wanted) retry()
      return
    }
    socket = ws
    const giveUp = setTimeout(() => {
      if (socket === ws && ws.readyState !== OPEN) lost(ws)
    }, connectTimeout)
    ws.onopen = () => {
      clearTimeout(giveUp)
      heartbeat = parameters.heartbeat?.(ws, () => lost(ws))
      heartbeat?.beat()
      if (dropped) reconnects++
      dropped = false
      attempt = 0
      setState('open')
      parameters.onOpen(ws)
    }
    ws.onclose = (event) => {
      clearTimeout(giveUp)
      if (!parameters.refused?.(event)) lost(ws)
    }
    ws.onerror = (event) => parameters.refused?.(event)
    ws.onmessage = (event) => {
      heartbeat?.beat()
      parameters.onMessage(event.data, ws)
    }
  }

  function lost(ws: WebSocketLike) {
    if (socket !== ws) return
    drop(ws)
    socket = undefined
    if (wanted) retry()
    else setState('closed')
  }

  /** Schedules the next attempt after a socket was lost (it was open) or an attempt failed (it never opened). */
  function retry() {
    const failed = state !== 'open'
    dropped ||= !failed
    scheduleReconnect()
    if (failed) onAttemptFailed?.()
  }

  return {
    get state() {
      return state
    },
    get reconnects() {
      return reconnects
    },
    send(frame) {
      // OPEN only once its open event came (it is the same task), and a socket left behind is no longer `socket`.
      if (socket?.readyState !== OPEN) return false
      socket.send(frame)
      return true
    },
    open() {
      if (wanted) return
      wanted = true
      target.addEventListener?.('online', onOnline)
      void connect()
    },
    reopen,
    lose() {
      if (socket && state === 'open') lost(socket)
    },
    close() {
      wanted = false
      clearTimeout(timer)
      target.removeEventListener?.('online', onOnline)
      if (socket) drop(socket)
      socket = undefined
      attempt = 0
      dropped = false
      setState('closed')
    },
  }
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
