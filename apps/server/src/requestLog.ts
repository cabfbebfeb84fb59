import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { redactUrls } from './redactUrls.js'

/**
 * The request ids taken from a trusted proxy's `X-Request-Id`: 8 to 128 letters, digits, `.`, `_`, `:` or `-`
 * (a UUID, nginx's `$request_id`, Envoy's and Heroku's ids). Anything else is replaced by an id of our own, so a
 * header can carry neither a line break nor a JSON or shell metacharacter into a log.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/

/** Longest path written to a log line; a longer one is cut and ends with `…`. */
const MAX_LOGGED_PATH = 256
/** Most query parameter names written to a log line. */
const MAX_LOGGED_QUERY_NAMES = 8

/** What an access line says of one finished request, also handed to {@link RequestLogParameters.onEnd}. */
export type RequestRecord = {
  requestId: string
  method: string
  /** The path without its query. */
  path: string
  /** The route that answered (`/api/nonce`, `/wallet/*`, `*` for the web app's files), bounded for metric labels. */
  route: string
  status: number
  /** From the request's arrival to the last byte written (or the connection closing). */
  ms: number
}

/** Parameters of {@link createRequestLog}. */
export type RequestLogParameters = {
  /** Where access lines (`info`) and 5xx lines (`error`) go. */
  logger: Logger
  /**
   * The server is behind a proxy it trusts (`TRUST_PROXY`): the client address is the last `X-Forwarded-For` hop and
   * an incoming `X-Request-Id` matching {@link REQUEST_ID_PATTERN} is kept. @default false
   */
  trustProxy?: boolean | undefined
  /** Called once per request when it ends, after its line is written (metrics). */
  onEnd?: ((record: RequestRecord) => void) | undefined
}

type RequestState = { id: string; route?: string; cause?: unknown }
const states = new WeakMap<IncomingMessage, RequestState>()

/**
 * Starts the log of every HTTP request: gives it an id (sent back as `X-Request-Id`) and, when the response ends,
 * writes one line: at `info` (`request`) below 500, at `error` (`request failed`) with the recorded cause
 * ({@link recordCause}) from 500 up. Lines carry `requestId`, `method`, `path` (never the query's values: a wallet's
 * deep link carries a `wc:` URI there), `query` (its parameter names), `status`, `ms` and `client`.
 * @example
 * const begin = createRequestLog({ logger, trustProxy })
 * server.on('request', (request, response) => { begin(request, response); app(request, response) })
 */
export function createRequestLog(
  parameters: RequestLogParameters,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { logger, trustProxy = false, onEnd } = parameters
  return (request, response) => {
    const started = performance.now()
    const offered = trustProxy ? request.headers['x-request-id'] : undefined
    const id = typeof offered === 'string' && REQUEST_ID_PATTERN.test(offered) ? offered : randomUUID()
    const state: RequestState = { id }
    states.set(request, state)
    response.setHeader('x-request-id', id)
    response.once('close', () => {
      const ms = Math.round((performance.now() - started) * 10) / 10
      const { path, query } = splitUrl(request.url ?? '/')
      const status = response.statusCode
      const line = {
        requestId: id,
        method: request.method ?? 'GET',
        path,
        ...(query.length > 0 ? { query } : {}),
        status,
        ms,
        client: clientAddressOf(request, trustProxy),
      }
      if (status >= 500) {
        // `error`, not pino's `err`: its serializer would relabel the type and, for an Error, copy every field.
        const error = state.cause === undefined ? undefined : describeError(state.cause)
        logger.error({ ...line, ...(error ? { error } : {}) }, 'request failed')
      } else logger.info(line, 'request')
      onEnd?.({ requestId: id, method: line.method, path, route: state.route ?? 'unmatched', status, ms })
    })
  }
}

/**
 * Records why `request` is answered with a 5xx, for its one `error` line. Call it where the 5xx is decided, with
 * the error as caught: its message and stack are logged with URLs redacted, never its other fields.
 */
export function recordCause(request: IncomingMessage | undefined, cause: unknown): void {
  const state = request && states.get(request)
  if (state) state.cause = cause
}

/** Records the route that answered `request` (a bounded label: a route pattern, never the raw path). */
export function recordRoute(request: IncomingMessage | undefined, route: string): void {
  const state = request && states.get(request)
  if (state) state.route = route
}

/**
 * The caller's address: the socket's, or behind a trusted proxy the last `X-Forwarded-For` hop (the one our own
 * proxy appended; earlier ones are whatever the client claimed). The access log's `client` and the API's rate limits.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-for'] : undefined
  const last = typeof forwarded === 'string' ? forwarded.split(',').pop()?.trim() : undefined
  return last || request.socket.remoteAddress || 'unknown'
}

/** The path (cut at {@link MAX_LOGGED_PATH}) and the query's parameter names, never their values. */
function splitUrl(url: string): { path: string; query: string[] } {
  const at = url.indexOf('?')
  const rawPath = at === -1 ? url : url.slice(0, at)
  const path = rawPath.length > MAX_LOGGED_PATH ? `${rawPath.slice(0, MAX_LOGGED_PATH)}…` : rawPath
  if (at === -1) return { path, query: [] }
  const names = new Set<string>()
  for (const name of new URLSearchParams(url.slice(at + 1)).keys()) {
    if (names.size === MAX_LOGGED_QUERY_NAMES) break
    names.add(name.slice(0, 40))
  }
  return { path, query: [...names] }
}

/** Logged form of an error (`error`): type, code, message, stack and causes, every URL in them redacted. */
type LoggedError = {
  type: string
  message: string
  code?: string
  stack?: string
  cause?: LoggedError
}

/**
 * An error's name, code, message and stack with every URL redacted, its causes (three deep) likewise. Other fields
 * are left out on purpose: viem's errors carry the node URL and request body, pg's the failing statement's values.
 */
function describeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactUrls(String(error)) }
  const code = (error as { code?: unknown }).code
  return {
    type: error.name,
    message: redactUrls(error.message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(error.stack ? { stack: redactUrls(error.stack) } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: describeError(error.cause, depth + 1) } : {}),
  }
}
