import { payloadId, RpcError, V1_ERRORS } from '@pairlink/protocol'
import { HTTP_TIMEOUT_MS } from './constants.js'
import { HttpRequestError, UnsupportedMethodError } from './errors.js'

/** One JSON-RPC call: a method and its params. */
export type RequestArguments = {
  method: string
  params?: readonly unknown[] | Record<string, unknown> | undefined
}

/** Parameters of {@link createHttpConnection}. */
export type HttpConnectionParameters = {
  /** The JSON-RPC node's URL. */
  url: string
  /**
   * Time-out of one request, in milliseconds.
   * @default 60000
   */
  timeout?: number | undefined
  /**
   * The `fetch` to use (tests, proxies, custom agents).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch | undefined
}

/** Return type of {@link createHttpConnection}. */
export type HttpConnection = {
  /** The node's URL. */
  url: string
  /** Sends one call; resolves with `result`, rejects with an {@link RpcError} (the node's code and message kept). */
  request(args: RequestArguments, options?: { signal?: AbortSignal | undefined }): Promise<unknown>
}

/**
 * A JSON-RPC connection over HTTP POST (reference §7.2): `{"jsonrpc":"2.0","id","method","params"}` with
 * `Content-Type: application/json`, one request per call, time-out 60000 ms by default.
 *
 * @example
 * const http = createHttpConnection({ url: 'http://127.0.0.1:8545' })
 * const balance = await http.request({ method: 'eth_getBalance', params: [address, 'latest'] })
 */
export function createHttpConnection(parameters: HttpConnectionParameters): HttpConnection {
  const { url } = parameters
  const timeout = parameters.timeout ?? HTTP_TIMEOUT_MS

  async function request(args: RequestArguments, options: { signal?: AbortSignal | undefined } = {}) {
    const { method } = args
    // An HTTP endpoint cannot push; v1 answered this without a request and so do we (v1 used code -1).
    if (method === 'eth_subscribe') throw new UnsupportedMethodError(V1_ERRORS.SUBSCRIPTIONS_NOT_SUPPORTED)
    const fail = (what: string, details: string, extra: { status?: number; cause?: unknown } = {}) =>
      new HttpRequestError(`${what} (method: ${method})`, { details, ...extra })

    const controller = new AbortController()
    const outer = options.signal
    const onAbort = () => controller.abort(outer?.reason)
    outer?.addEventListener('abort', onAbort)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeout)

    try {
      if (outer?.aborted) throw outer.reason
      let response: Response
      let text: string
      try {
        response = await (parameters.fetch ?? fetch)(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: payloadId(), method, params: args.params ?? [] }),
          signal: controller.signal,
        })
        text = await response.text()
      } catch (error) {
        if (timedOut) throw fail(`HTTP request timed out after ${timeout} ms`, 'timeout', { cause: error })
        if (outer?.aborted) throw outer.reason
        throw fail('HTTP request failed', 'network', { cause: error })
      }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch (error) {
        if (!response.ok)
          throw fail(`HTTP request failed with status ${response.status}`, 'status', {
            status: response.status,
          })
        throw fail('HTTP response is not JSON', 'invalid-json', { status: response.status, cause: error })
      }
      const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } } | null)?.error
      if (error && typeof error === 'object') {
        const code = typeof error.code === 'number' ? error.code : -32603
        const message = typeof error.message === 'string' ? error.message : 'Internal error'
        // Nodes answer -32601 with a bare "Method not found"; name the method so the person knows which.
        const named = code === -32601 && !message.includes(method) ? `${message}: ${method}` : message
        throw new RpcError(named, { code, data: error.data })
      }
      if (!response.ok)
        throw fail(`HTTP request failed with status ${response.status}`, 'status', {
          status: response.status,
        })
      if (body === null || typeof body !== 'object' || !('result' in body)) {
        throw fail('HTTP response is not a JSON-RPC response', 'invalid-response', {
          status: response.status,
        })
      }
      return (body as { result: unknown }).result
    } finally {
      clearTimeout(timer)
      outer?.removeEventListener('abort', onAbort)
    }
  }

  return { url, request }
}
