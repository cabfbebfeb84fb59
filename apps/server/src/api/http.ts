import type { IncomingMessage, ServerResponse } from 'node:http'

/** An API error answered as `{ "error": message }` with its HTTP status. Never a 500 for bad input. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** Largest JSON body the API reads. */
const MAX_BODY_BYTES = 16 * 1024

/** Reads a JSON object body: 415 without a JSON content type, 413 beyond the limit, 400 when it is not an object. */
export async function readJson(
  request: IncomingMessage,
  maxBytes = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  const type = request.headers['content-type'] ?? ''
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(415, 'Send a JSON body (Content-Type: application/json)')
  const declared = Number(request.headers['content-length'] ?? 0)
  if (declared > maxBytes) throw new ApiError(413, `Body larger than ${maxBytes} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) throw new ApiError(413, `Body larger than ${maxBytes} bytes`)
    chunks.push(chunk)
  }
  let body: unknown
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
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

/** Sends a JSON answer that no cache keeps. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
  response.end(JSON.stringify(body))
}

/** This server's origin as the browser sees it. */
export function originOf(request: IncomingMessage, trustProxy: boolean): string {
  return `${isHttps(request, trustProxy) ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`
}

/** Whether the browser reached us over https (directly, or through a trusted proxy that says so). */
export function isHttps(request: IncomingMessage, trustProxy: boolean): boolean {
  if ((request.socket as { encrypted?: boolean }).encrypted) return true
  return (
    trustProxy &&
    String(request.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() === 'https'
  )
}

/** The caller's address for rate limits. */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-for'] : undefined
  const last = typeof forwarded === 'string' ? forwarded.split(',').pop()?.trim() : undefined
  return last || request.socket.remoteAddress || 'unknown'
}
