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
  /** Makes the `ws:`/`wss:` URL afresh for every socket (v2: each carries a newly signed JWT). */
  url: () => string | Promise<string>
  /** @default globalThis.WebSocket, else the `ws` package (Node) */
  WebSocket?: WebSocketConstructor | undefined
  reconnect?: ReconnectOptions | undefined
  /** Source of jitter. @default Math.random */
  random?: (() => number) | undefined
  /**
   * The socket opened (the state is `open` already): the framing sends what waited, and subscribes, on `ws`. `lose`
   * takes this socket as dead while no close came (keep-alive: silent, or answering nothing): it is lost, and reopened
   * with backoff; once the socket is gone, `lose` does nothing.
   */
  onOpen: (ws: WebSocketLike, lose: () => void) => void
  /** A frame arrived on `ws` (the framing may answer on it, as v2 acks a push). */
  onMessage: (data: unknown, ws: WebSocketLike) => void
  /**
   * Told every error and close event: a framing that finds the server refusing this client in it closes the socket
   * for good (v2). Otherwise an error is let be (a close always follows it) and a close means the socket was lost: it
   * is reopened.
   */
  checkRefusal?: ((event: unknown) => void) | undefined
  onStateChange?: ((state: TransportState) => void) | undefined
  /** Called when an attempt to open the socket failed (refused, or timed out) and a retry is scheduled. */
  onAttemptFailed?: (() => void) | undefined
}

/** A socket kept open while wanted: both generations' transports frame their messages on it. */
export type Socket = {
  readonly state: TransportState
  /**
   * How many times the socket was re-opened after being lost (closed by the server or the network, timed out, or
   * found dead by the framing): the first open after a loss counts 1, whatever the failed attempts in between.
   * Opening after attempts that never opened (the server down from the start) is no re-open, nor is
   * {@link Socket.reopen}'s replacement or an open after `close`.
   */
  readonly reconnects: number
  /** Sends a frame when the socket is open; else opens it and returns `false` (the framing keeps the frame). */
  send(frame: string): boolean
  /** Opens the socket if it is not open or opening. */
  open(): void
  /** A wanted socket is replaced by a new one at once (not counted as a re-open). */
  reopen(): void
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
 * on the browser's `online` event, one its framing finds dead (`onOpen`'s `lose`: v2 watches for silence with
 * `watchHeartbeat`) is lost too, and the re-opens are counted.
 *
 * @example
 * const socket = createSocket({ url, onOpen: (ws) => ws.send(hello), onMessage: (data) => handle(data) })
 * socket.open()
 */
export function createSocket(parameters: CreateSocketParameters): Socket {
  const { url, reconnect = {}, random, onStateChange } = parameters
  const { connectTimeout = 10_000 } = reconnect
  let socket: WebSocketLike | undefined
  let state: TransportState = 'closed'
  let wanted = false
  let attempt = 0
  let reconnects = 0
  // An open socket was lost: the next open is a re-open.
  let dropped = false
  let timer: ReturnType<typeof setTimeout> | undefined

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

  /** Drops the socket (its events no longer heard) and any attempt scheduled. */
  function release() {
    clearTimeout(timer)
    const ws = socket
    socket = undefined
    if (!ws) return
    ws.onopen = ws.onclose = ws.onmessage = null
    // Not null: `ws` reports closing a still-connecting socket as an error event, and throws it when nobody listens.
    ws.onerror = () => {}
    try {
      ws.close()
    } catch {}
  }

  async function connect() {
    release()
    setState('connecting')
    let ws: WebSocketLike
    try {
      const Constructor = parameters.WebSocket ?? (await loadWebSocket())
      const address = await url()
      if (!wanted || socket) return
      ws = new Constructor(address)
    } catch {
      if (wanted) retry()
      return
    }
    socket = ws
    // Cleared on open: a socket still here then never opened (one released meanwhile is no longer lost).
    const giveUp = setTimeout(() => lost(ws), connectTimeout)
    ws.onopen = () => {
      clearTimeout(giveUp)
      if (dropped) reconnects++
      dropped = false
      attempt = 0
      setState('open')
      parameters.onOpen(ws, () => lost(ws))
    }
    ws.onclose = (event) => {
      clearTimeout(giveUp)
      parameters.checkRefusal?.(event)
      // After a refusal the socket is no longer `ws`: nothing to reopen.
      lost(ws)
    }
    ws.onerror = (event) => parameters.checkRefusal?.(event)
    ws.onmessage = (event) => parameters.onMessage(event.data, ws)
  }

  function open() {
    if (wanted) return
    wanted = true
    target.addEventListener?.('online', onOnline)
    void connect()
  }

  function lost(ws: WebSocketLike) {
    if (socket !== ws) return
    release()
    if (wanted) retry()
    else setState('closed')
  }

  /** Schedules the next attempt after a socket was lost (it was open) or an attempt failed (it never opened). */
  function retry() {
    const failed = state !== 'open'
    dropped ||= !failed
    setState('connecting')
    timer = setTimeout(connect, getReconnectDelay(attempt++, reconnect, random))
    if (failed) parameters.onAttemptFailed?.()
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
      if (socket?.readyState === OPEN) {
        socket.send(frame)
        return true
      }
      open()
      return false
    },
    open,
    reopen,
    close() {
      wanted = false
      release()
      target.removeEventListener?.('online', onOnline)
      attempt = 0
      dropped = false
      setState('closed')
    },
  }
}

let wsPromise: Promise<WebSocketConstructor> | undefined

/** `globalThis.WebSocket` when there is one (browsers, Node ≥ 22), else the `ws` package. */
function loadWebSocket(): Promise<WebSocketConstructor> {
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
