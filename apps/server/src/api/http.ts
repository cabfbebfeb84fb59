import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { clientAddressOf } from '../requestLog.js'
import type { Site, SiteView } from '../site.js'

/** An API error answered as `{ "error": message }` with its HTTP status. Never a 500 for bad input. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** A stable name for the case (`ERR_…`, docs/errors.md), sent beside the text so clients dispatch on it. */
    readonly code?: string | undefined,
    /** What went wrong underneath, logged (never answered) when the status is a 5xx. */
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The hono environment of every route: the Node request and response beside the web ones. */
export type AppEnv = { Bindings: HttpBindings }

/** Largest JSON body the API reads. */
const MAX_BODY_BYTES = 16 * 1024

/** Refuses bodies beyond `maxBytes` with 413, whether declared in `Content-Length` or streamed. */
export function limitBody(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `Body larger than ${maxBytes} bytes`)
    },
  })
}

/** Reads a JSON object body: 415 without a JSON content type, 400 when it is not an object (size: {@link limitBody}). */
export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(415, 'Send a JSON body (Content-Type: application/json)')
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(400, 'Body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'Body must be a JSON object')
  return body as Record<string, unknown>
}

/** A string field of a body, with a length bound; 400 naming the field otherwise. */
export function stringField(body: Record<string, unknown>, name: string, maxLength: number): string {
  const value = body[name]
  if (typeof value !== 'string' || value.length === 0)
    throw new ApiError(400, `Field '${name}' must be a non-empty string`)
  if (value.length > maxLength)
    throw new ApiError(400, `Field '${name}' is longer than ${maxLength} characters`)
  return value
}

/** Headers of JSON answers no cache keeps. */
export const NO_STORE = { 'cache-control': 'no-store' }

/** The site as this request sees it: configured, the request's `Host` only picking among the configured hosts. */
export function siteOf(c: Context<AppEnv>, site: Site): SiteView {
  return site.of({
    host: c.req.header('host'),
    forwardedProto: c.req.header('x-forwarded-proto'),
    encrypted: (c.env?.incoming?.socket as { encrypted?: boolean } | undefined)?.encrypted === true,
  })
}

/** The caller's address for rate limits: the socket's, or the last `X-Forwarded-For` hop behind a trusted proxy. */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  const incoming = c.env?.incoming
  return incoming ? clientAddressOf(incoming, trustProxy) : 'unknown'
}

/**
 * CSRF guard for state-changing requests: the page must be of this site. Browsers send `Origin` on every cross-site
 * POST (checked against the configured origin, never the request's `Host`), and `Sec-Fetch-Site` on every request;
 * a request with neither is refused too. hono's `csrf()` only looks at form content types, so JSON posts would pass it.
 */
export function sameSite(site: Site): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next()
    const from = c.req.header('origin')
    const fetchSite = c.req.header('sec-fetch-site')
    if (from === undefined && fetchSite === undefined)
      throw new ApiError(403, 'Cross-site request refused: no Origin header')
    if (from !== undefined ? from !== siteOf(c, site).origin : fetchSite !== 'same-origin')
      throw new ApiError(403, 'Cross-site request refused')
    return next()
  }
}
