import { BRIDGE_DESCRIPTION, BRIDGE_NAME, BRIDGE_VERSION } from './constants.js'
import type { Bridge } from './createBridge.js'
import { InvalidWebhookError, WebhookRateLimitedError, WebhookRefusedError } from './errors.js'

/** An HTTP request as the bridge's routes see it; the adapter fills it from `node:http`. */
export type HttpRequest = {
  method: string
  /** Path without the query string. */
  path: string
  /** The caller's address (after `trustProxy`), for per-address limits; none means no per-address limit. */
  remoteAddress?: string | undefined
  /** Reads the body (bounded by the adapter); only called by routes that take one. */
  body(): Promise<string>
}

/** An HTTP response for the adapter to write. */
export type HttpResponse = {
  status: number
  headers: Record<string, string>
  body: string
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }
const json = (status: number, value: unknown): HttpResponse => ({
  status,
  headers: JSON_HEADERS,
  body: JSON.stringify(value),
})
const text = (status: number, body: string): HttpResponse => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body,
})
const empty = (status: number): HttpResponse => ({ status, headers: {}, body: '' })
// The 400 texts of node-walletconnect-bridge (reference §3.4), which push servers may log or match.
const badRequest = (message: string) => json(400, { message: `Error: ${message}` })

// Healthy when the v1 backend and the v2 relay's store (both Redis, or memory) can serve.
const healthy = async (bridge: Bridge, relay: { isHealthy(): Promise<boolean> } | undefined) => {
  const both = await Promise.all([bridge.isHealthy(), relay?.isHealthy() ?? true]).catch(() => [false])
  return both.every(Boolean)
}

/**
 * Answers the bridge's HTTP endpoints (reference §3.4): `GET /hello`, `GET /info`, `GET /health`,
 * `POST /subscribe`, `GET /metrics`. Returns `undefined` for any other path, so an app can serve its own routes.
 *
 * @example
 * const response = await handleHttpRequest(bridge, { method: 'GET', path: '/health', body: async () => '' })
 */
export async function handleHttpRequest(
  bridge: Bridge,
  request: HttpRequest,
  relay?: { isHealthy(): Promise<boolean> } | undefined,
): Promise<HttpResponse | undefined> {
  const { method, path } = request
  const get = method === 'GET' || method === 'HEAD'
  switch (path) {
    case '/hello':
      return get ? text(200, `Hello World, this is Pairlink Bridge v${BRIDGE_VERSION}`) : notAllowed('GET')
    case '/info':
      return get
        ? json(200, { name: BRIDGE_NAME, description: BRIDGE_DESCRIPTION, version: BRIDGE_VERSION })
        : notAllowed('GET')
    case '/health':
      if (!get) return notAllowed('GET')
      return empty((await healthy(bridge, relay)) ? 204 : 503)
    case '/metrics': {
      if (!get) return notAllowed('GET')
      const { registry } = bridge.metrics
      return {
        status: 200,
        headers: { 'content-type': registry.contentType },
        body: await registry.metrics(),
      }
    }
    case '/subscribe':
      return method === 'POST' ? subscribe(bridge, request) : notAllowed('POST')
    default:
      return undefined
  }
}

async function subscribe(bridge: Bridge, request: HttpRequest): Promise<HttpResponse> {
  let value: unknown
  try {
    value = JSON.parse(await request.body())
  } catch (error) {
    if (error instanceof RangeError) return json(413, { message: 'Error: request body too large' })
    return badRequest('missing or invalid request body')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return badRequest('missing or invalid request body')
  const { topic, webhook } = value as Record<string, unknown>
  if (typeof topic !== 'string' || topic.length === 0 || topic.length > bridge.options.maxTopicLength)
    return badRequest('missing or invalid topic field')
  if (typeof webhook !== 'string' || webhook.length === 0)
    return badRequest('missing or invalid webhook field')
  try {
    await bridge.subscribeWebhook(topic, webhook, request.remoteAddress)
  } catch (error) {
    if (error instanceof WebhookRateLimitedError)
      return {
        ...json(429, { message: `Error: ${error.message}` }),
        headers: { ...JSON_HEADERS, 'retry-after': '60' },
      }
    if (error instanceof InvalidWebhookError) {
      bridge.metrics.counts.webhooksRefused++
      return badRequest(`missing or invalid webhook field (${error.message})`)
    }
    if (error instanceof WebhookRefusedError) {
      bridge.metrics.counts.webhooksRefused++
      return badRequest(`webhook host not allowed (${error.message})`)
    }
    bridge.metrics.counts.backendErrors++
    return json(503, { message: 'Error: failed to save webhook' })
  }
  return json(200, { success: true })
}

function notAllowed(allow: string): HttpResponse {
  return {
    ...text(405, 'Method Not Allowed'),
    headers: { allow, 'content-type': 'text/plain; charset=utf-8' },
  }
}
