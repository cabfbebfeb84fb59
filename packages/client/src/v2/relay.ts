import { isRelayRefusalCode } from '@pairlink/protocol/v2'
import { watchHeartbeat } from '../heartbeat.js'
import {
  createSocket,
  type ReconnectOptions,
  type TransportState,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../socket.js'
import { RelayError, RelayRefusedError } from './errors.js'
import { parseRelayFrame, type RelayMessage, relayRpcId } from './relayFrames.js'

/** Parameters of {@link createRelayConnection}. */
export type CreateRelayConnectionParameters = {
  /** The socket URL, made afresh for every socket: each carries a newly signed JWT. */
  url: () => Promise<string>
  /** @default globalThis.WebSocket, else the `ws` package */
  WebSocket?: WebSocketConstructor | undefined
  /** Every topic to subscribe again on each (re)open, the implicit ones included (relay-v2.md §5). */
  topics: () => string[]
  /** A push, acked already; a push seen before (same topic and envelope) goes to `onDuplicate` instead. */
  onMessage: (message: RelayMessage) => void
  onDuplicate: () => void
  /** A frame that is not JSON-RPC 2.0, or a push without topic and message. */
  onMalformed: () => void
  onStateChange?: ((state: TransportState) => void) | undefined
  /** The relay refused this client ({@link RelayRefusedError}): the connection has stopped and will not reconnect. */
  onRefused?: ((error: RelayRefusedError) => void) | undefined
  /** @default { minDelay: 500, maxDelay: 30000, connectTimeout: 10000 } */
  reconnect?: ReconnectOptions | undefined
  /** How long the relay may take to answer one call, in ms. @default 15000 */
  requestTimeout?: number | undefined
  random?: (() => number) | undefined
}

/** One WebSocket to a v2 relay: JSON-RPC calls with answer time-outs, acked pushes, reconnect with backoff. */
export type RelayConnection = {
  readonly state: TransportState
  /** Times the socket was re-opened after being lost: the first re-open after a loss counts 1 (`socket.ts`). */
  readonly reconnects: number
  /** Calls a relay method, opening the socket when needed; a call lost with its socket is sent again on reopen. */
  request<result = unknown>(method: string, params: Record<string, unknown>): Promise<result>
  /** Opens the socket if it is not open or opening (a restored client with topics to follow). */
  open(): void
  /** A wanted socket is replaced by a new one (a new identity in its JWT); calls in flight go again on it. */
  reopen(): void
  /** Closes the socket for good (until the next `request`); calls in flight reject. */
  close(): void
}

type Call = {
  frame: string
  /** The topic of an `irn_subscribe`: the subscribe on open need not name it again. */
  topic: string | undefined
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
  timer: ReturnType<typeof setTimeout>
}

const HTTP_REFUSAL = /^Unexpected server response: (401|403)$/
// The SDK's batch size for irn_batchSubscribe; our relay and the hosted one accept it.
const SUBSCRIBE_BATCH = 500
// Pushes remembered to drop re-sent ones: the relay re-pushes what it has not seen acked, after a reconnect.
const SEEN_LIMIT = 2000

/**
 * Keeps the socket to a v2 relay (relay-v2.md) on {@link createSocket}, which reopens a lost one with backoff and
 * counts the re-opens: calls wait for the socket and for their answer, pushes are acked at once, and on every (re)open
 * the calls in flight go again and every known topic is subscribed with `irn_batchSubscribe`, so the relay pushes what
 * it kept meanwhile. An open socket silent for 35 s (`watchHeartbeat`, Node) or that answers a call with nothing is
 * lost; one the relay refuses (close 3000 or 4xxx, HTTP 401/403) stops the connection.
 *
 * @example
 * const relay = createRelayConnection({ url: signedUrl, topics: () => topics, onMessage, onDuplicate, onMalformed })
 * await relay.request('irn_subscribe', { topic })
 */
export function createRelayConnection(parameters: CreateRelayConnectionParameters): RelayConnection {
  const { requestTimeout = 15_000 } = parameters
  const calls = new Map<string, Call>()
  const seen = new Set<string>()
  let heartbeat: ReturnType<typeof watchHeartbeat> | undefined
  let lose: (() => void) | undefined

  const socket = createSocket({
    ...parameters,
    onOpen(ws, lost) {
      // The last socket's watch is left to run out: its `lost` does nothing once that socket is gone.
      heartbeat = watchHeartbeat(ws, lost)
      heartbeat.beat()
      lose = lost
      const queued = new Set<string | undefined>()
      for (const call of calls.values()) {
        ws.send(call.frame)
        queued.add(call.topic)
      }
      // A topic subscribed twice would have the relay push its kept messages twice.
      const topics = parameters.topics().filter((topic) => !queued.has(topic))
      for (let i = 0; i < topics.length; i += SUBSCRIBE_BATCH)
        connection
          .request('irn_batchSubscribe', { topics: topics.slice(i, i + SUBSCRIBE_BATCH) })
          .catch(() => {})
    },
    onMessage: receive,
    checkRefusal(event) {
      // A close event (browsers' and `ws`'s) has a numeric `code` and a string `reason`; a `ws` error event a message.
      const { code, reason, message } = event as { code?: unknown; reason: string; message: string }
      // In Node, `ws` reports a refused upgrade as an error with the HTTP status (browsers show nothing of it).
      const status = HTTP_REFUSAL.exec(message)?.[1]
      if (status) refuse(Number(status), message)
      // The relay would refuse a new socket the same way: none is opened by itself (the SDK stops on 3000 too).
      else if (isRelayRefusalCode(code)) refuse(code, reason)
    },
  })

  // The bare close, before the connection's own (which rejects the calls) takes its place.
  const { close } = socket

  function refuse(closeCode: number, reason: string) {
    const refusal = new RelayRefusedError({ closeCode, reason })
    stop(refusal)
    parameters.onRefused?.(refusal)
  }

  /** Stops wanting a socket: no reconnect, every call waiting for the relay rejects with `error`. */
  function stop(error: RelayError) {
    for (const call of calls.values()) {
      clearTimeout(call.timer)
      call.reject(error)
    }
    calls.clear()
    close()
  }

  function receive(data: unknown, ws: WebSocketLike) {
    heartbeat?.beat()
    const frame = parseRelayFrame(data)
    if (frame === undefined) return parameters.onMalformed()
    if (frame === null) return
    if (frame.push) {
      // Acked before it is handled, as the SDK does: the ack only says the socket got it.
      ws.send(frame.ack)
      const { message } = frame
      if (!message) return parameters.onMalformed()
      // The Poly1305 tag at the end tells two envelopes apart; the whole text need not be kept.
      const key = `${message.topic}:${message.message.slice(-24)}`
      if (seen.has(key)) return parameters.onDuplicate()
      if (seen.size >= SEEN_LIMIT) seen.delete(seen.values().next().value as string)
      seen.add(key)
      return parameters.onMessage(message)
    }
    const call = calls.get(frame.id)
    if (!call) return
    calls.delete(frame.id)
    clearTimeout(call.timer)
    const { error } = frame
    if (error) call.reject(new RelayError(String(error.message ?? 'Relay error'), error.code))
    else call.resolve(frame.result)
  }

  // The socket itself is the connection (state, counter, open and reopen read through), with calls and a close that
  // rejects them.
  const connection: RelayConnection = Object.assign(socket, {
    request<result>(method: string, params: Record<string, unknown>) {
      const id = relayRpcId()
      const frame = JSON.stringify({ id, jsonrpc: '2.0', method, params })
      return new Promise<result>((resolve, reject) => {
        const timer = setTimeout(() => {
          calls.delete(id)
          reject(
            new RelayError(`Relay did not answer ${method} within ${requestTimeout} ms`, 'ERR_RELAY_TIMEOUT'),
          )
          // An open socket that answers nothing is likely dead (no close seen, as after a network change): reopen it.
          // (`lose` is the last socket opened's: once that one is gone, it does nothing.)
          lose?.()
        }, requestTimeout)
        const topic = method === 'irn_subscribe' ? (params.topic as string) : undefined
        calls.set(id, { frame, topic, resolve: resolve as (result: unknown) => void, reject, timer })
        socket.send(frame)
      })
    },
    close() {
      stop(new RelayError('Relay connection closed', 'ERR_RELAY_CLOSED'))
    },
  })
  return connection
}
