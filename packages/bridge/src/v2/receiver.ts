import { CLOSE_POLICY_VIOLATION } from '../constants.js'
import { createKeyCounts } from '../keyCounts.js'
import type { Handler } from './handlers.js'
import { takePush } from './inflight.js'
import {
  errorFrame,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_LIMIT_EXCEEDED,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  rawId,
  resultFrame,
} from './jsonRpc.js'
import { LimitError, ParamsError, VerbatimParamsError } from './params.js'
import {
  type Conn,
  isPromise,
  type Outcome,
  type PendingAnswer,
  type RelayContext,
  TRUE,
} from './relayContext.js'

// Bytes of frames a socket, and all the sockets of one address, may have waiting behind requests that wait on the
// store (publishes the store has not answered yet count too); beyond, frames are dropped (counted as refused).
const MAX_WAITING_BYTES = 1_048_576
const MAX_WAITING_BYTES_PER_IP = 4_194_304
// Requests whose answer may come after later frames were handled: a publish is pushed at once and answered once the
// store keeps it (or a reader acked it), so later frames need not wait for the store. Any other request waiting on
// the store makes the socket's later frames wait behind it.
const CONCURRENT = new Set(['irn_publish', 'irn_batchPublish'])

/** Return type of {@link createReceiver}. */
export type Receiver = {
  /** Reads one text frame of `conn`. */
  receive(conn: Conn, text: string): void
  /**
   * Answers a bad frame with a JSON-RPC error, spending a token of the socket's and the address's rate limits; one that
   * finds a bucket empty closes the socket with 1008 instead (as v1 does), so bad frames are never free.
   */
  reject(conn: Conn, idText: string, code: number, message: string): void
}

/**
 * Reads a socket's text frames: acks, requests checked and rate-limited, then handed to their method. Answers go out
 * in request order. A publish waiting on the store lets later frames through (its pushes went out already); any other
 * request waiting on it makes them wait behind it, and so do publishes holding more than the socket's or the address's
 * share of waiting bytes. Every frame but the ack of an awaited push spends the rate limits.
 */
export function createReceiver(ctx: RelayContext, handlers: Record<string, Handler>): Receiver {
  const { store, counts, logger, perSocket, perAddress, failed, minRequestId } = ctx

  // Waiting bytes per address, so that many sockets of one address cannot each hold a full queue.
  const waitingByAddress = createKeyCounts()
  const setWaiting = (conn: Conn, bytes: number) => {
    addWaiting(conn, bytes - conn.waitingBytes)
    conn.waitingBytes = bytes
  }
  const addWaiting = (conn: Conn, delta: number) => waitingByAddress.add(conn.address, delta)
  // Whether the socket's publishes waiting on the store hold its share: later frames then wait behind them.
  const full = (conn: Conn) =>
    conn.publishingBytes > MAX_WAITING_BYTES || waitingByAddress.get(conn.address) > MAX_WAITING_BYTES_PER_IP

  // Sends an answer, or queues it behind earlier ones not sent yet.
  const send = (conn: Conn, frame: string, after?: () => void) => {
    if (conn.answers === undefined) {
      conn.socket.send(frame)
      after?.()
      return
    }
    conn.answers.push({ settled: true, bytes: 0, blocking: false, frame, after })
  }
  // Sends the settled answers at the head of the queue.
  const drain = (conn: Conn) => {
    const answers = conn.answers
    if (!answers) return
    let i = 0
    for (; i < answers.length; i++) {
      const next = answers[i] as PendingAnswer
      if (!next.settled) break
      conn.socket.send(next.frame as string)
      next.after?.()
    }
    if (i === answers.length) conn.answers = undefined
    else if (i > 0) answers.splice(0, i)
  }

  const spend = (conn: Conn) => perSocket.take(conn.socket.id) && perAddress.take(conn.address)

  // Beyond the rate limit a bad frame closes the socket: a client sending garbage that fast is not the SDK.
  const refuse = (conn: Conn) => {
    conn.refused = true
    counts.refused++
    logger.warn(
      { socket: conn.socket.id, address: conn.address },
      'v2 bad frames over the rate limit, closing socket',
    )
    conn.socket.close(CLOSE_POLICY_VIOLATION, 'Rate limit exceeded')
  }

  const reject = (conn: Conn, idText: string, code: number, message: string) => {
    if (conn.refused) return
    counts.invalid++
    if (!spend(conn)) return refuse(conn)
    send(conn, errorFrame(idText, code, message))
  }

  const answerFrame = (idText: string, outcome: Outcome) =>
    outcome === TRUE ? `{"id":${idText},"jsonrpc":"2.0","result":true}` : resultFrame(idText, outcome.result)

  const errorAnswer = (idText: string, error: unknown) => {
    if (error instanceof ParamsError) {
      counts.invalid++
      const message =
        error instanceof VerbatimParamsError ? error.message : `Invalid params: ${error.message}`
      return errorFrame(idText, RPC_INVALID_PARAMS, message)
    }
    if (error instanceof LimitError) {
      counts.refused++
      return errorFrame(idText, RPC_LIMIT_EXCEEDED, error.message)
    }
    // The store failed (Redis away): the SDK retries subscribes and re-sends publishes on its heartbeat.
    failed(error)
    return errorFrame(idText, RPC_INTERNAL_ERROR, 'Relay storage unavailable, try again later')
  }

  // A request waiting on the store: its answer takes its place in the queue; later frames wait behind it unless it is
  // a publish within the socket's share.
  const wait = (
    conn: Conn,
    idText: string,
    outcome: Promise<Outcome>,
    concurrent: boolean,
    bytes: number,
  ) => {
    const pending: PendingAnswer = {
      settled: false,
      bytes: concurrent ? bytes : 0,
      blocking: !concurrent,
      frame: undefined,
      after: undefined,
    }
    conn.answers ??= []
    conn.answers.push(pending)
    if (concurrent) {
      conn.publishingBytes += bytes
      addWaiting(conn, bytes)
    } else conn.blocking++
    if (!concurrent || full(conn)) conn.waiting ??= []
    const settle = (frame: string, after?: () => void) => {
      pending.frame = frame
      pending.after = after
      pending.settled = true
      if (pending.blocking) conn.blocking--
      if (pending.bytes > 0) {
        conn.publishingBytes -= pending.bytes
        addWaiting(conn, -pending.bytes)
      }
      try {
        drain(conn)
        // With none of its own publishes waiting any more, a socket goes on whatever the other sockets of its address
        // hold (its own waiting frames are bounded), else it would wait for a settle that never comes.
        if (conn.waiting && conn.blocking === 0 && (conn.publishingBytes === 0 || !full(conn))) resume(conn)
      } catch (error) {
        failed(error)
      }
    }
    // One reaction per request (the hot path of a publish on a shared store).
    outcome.then(
      (value) => settle(answerFrame(idText, value), value.after),
      (error: unknown) => settle(errorAnswer(idText, error)),
    )
  }

  // Runs once what made the socket wait is settled, also when the socket closed meanwhile: its waiting bytes leave its
  // address's count here.
  const resume = (conn: Conn) => {
    const waiting = conn.waiting
    conn.waiting = undefined
    setWaiting(conn, 0)
    if (!waiting) return
    for (let i = 0; i < waiting.length; i++) {
      if (conn.closed) return
      handle(conn, waiting[i] as string)
      if (conn.waiting) {
        // Waiting again: what was not handled yet goes before what arrived meanwhile.
        const rest = waiting.slice(i + 1)
        conn.waiting = rest
        setWaiting(
          conn,
          rest.reduce((sum, text) => sum + text.length, 0),
        )
        return
      }
    }
  }

  const receive = (conn: Conn, text: string) => {
    if (conn.refused) return
    if (!conn.waiting) {
      handle(conn, text)
      return
    }
    const address = waitingByAddress.get(conn.address)
    if (
      conn.waitingBytes + text.length > MAX_WAITING_BYTES ||
      address + text.length > MAX_WAITING_BYTES_PER_IP
    ) {
      counts.refused++
      return
    }
    conn.waiting.push(text)
    setWaiting(conn, conn.waitingBytes + text.length)
  }

  // A push's answer: its ack (`result`) counts the message as had by this client; an error changes nothing. An answer
  // to no awaited push costs a token like any other frame (the SDK's acks of awaited pushes stay free).
  const answered = (conn: Conn, id: number, acked: boolean) => {
    const message = takePush(conn, id)
    if (!message) {
      if (!spend(conn)) refuse(conn)
      return
    }
    if (!acked) return
    store.ack(message, conn.clientId)
    counts.acks++
  }

  const handle = (conn: Conn, text: string) => {
    // Every push is acked, as many frames as publishes: the SDK's ack is recognised without a parse.
    const ack = ackId(text)
    if (ack !== undefined) {
      answered(conn, ack, true)
      return
    }
    let frame: unknown
    try {
      frame = JSON.parse(text)
    } catch {
      return reject(conn, 'null', RPC_PARSE_ERROR, 'Parse error')
    }
    if (!frame || typeof frame !== 'object' || Array.isArray(frame))
      return reject(conn, 'null', RPC_INVALID_REQUEST, 'Invalid request: expected one JSON-RPC 2.0 object')
    const { id, method, params, jsonrpc } = frame as Record<string, unknown>
    // A response: the ack of a push (or its refusal, which changes nothing).
    if (method === undefined && ('result' in frame || 'error' in frame)) {
      if (typeof id === 'number') answered(conn, id, 'result' in frame)
      else if (!spend(conn)) refuse(conn)
      return
    }
    const validId = typeof id === 'string' || typeof id === 'number'
    const idText = validId ? rawId(text, id) : 'null'
    if (jsonrpc !== '2.0' || !validId || typeof method !== 'string')
      return reject(conn, idText, RPC_INVALID_REQUEST, 'Invalid request')
    if (minRequestId !== undefined && !idAtLeast(id as string | number, minRequestId))
      return reject(
        conn,
        idText,
        RPC_INVALID_REQUEST,
        `Invalid request: id must be an integer of at least ${minRequestId}`,
      )
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
    if (!handler)
      return reject(conn, idText, RPC_METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 64)}`)
    if (!spend(conn)) {
      counts.refused++
      logger.warn({ socket: conn.socket.id, address: conn.address, method }, 'v2 rate limit exceeded')
      send(conn, errorFrame(idText, RPC_LIMIT_EXCEEDED, 'Rate limit exceeded, try again later'))
      return
    }
    let outcome: Outcome | Promise<Outcome>
    try {
      outcome = handler(conn, params, text)
    } catch (error) {
      send(conn, errorAnswer(idText, error))
      return
    }
    if (isPromise(outcome)) wait(conn, idText, outcome, CONCURRENT.has(method), text.length)
    else send(conn, answerFrame(idText, outcome), outcome.after)
  }

  return { receive, reject }
}

/** Whether a request id (a number, or a string of decimal digits as the SDK sends) is an integer ≥ `min`. */
function idAtLeast(id: string | number, min: bigint): boolean {
  if (typeof id === 'number') return Number.isInteger(id) && id >= Number(min)
  return /^\d{1,40}$/.test(id) && BigInt(id) >= min
}

const ACK_HEAD = '{"id":'
const ACK_TAIL = ',"jsonrpc":"2.0","result":true}'
// Digits of the largest safe integer: a longer id is no push's.
const MAX_ID_DIGITS = 16

/**
 * The id of an ack written exactly as the SDK writes it (`{"id":<digits>,"jsonrpc":"2.0","result":true}`, what
 * `JSON.stringify` gives for `formatJsonRpcResult(id, true)`), else `undefined`: any other spelling takes the full
 * parse, which reads it the same way.
 */
export function ackId(text: string): number | undefined {
  const start = ACK_HEAD.length
  const end = text.length - ACK_TAIL.length
  if (end <= start || end - start > MAX_ID_DIGITS) return undefined
  if (text.slice(end) !== ACK_TAIL || text.slice(0, start) !== ACK_HEAD) return undefined
  // JSON has no leading zeros: `{"id":01,…}` is a parse error, answered as such by the full path.
  if (text.charCodeAt(start) === 48 && end - start > 1) return undefined
  let id = 0
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return undefined
    id = id * 10 + digit
  }
  // Beyond 2^53 the sum above may round differently from JSON.parse: such an id takes the full parse.
  return Number.isSafeInteger(id) ? id : undefined
}
