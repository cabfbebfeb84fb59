import {
  DEEPLINK_CHOICE_STORAGE_KEY,
  InvalidJsonRpcError,
  normalizePersonalSign,
  normalizeTransaction,
  payloadId,
  RpcError,
  SessionError,
  type TransactionInput,
  V1_ERRORS,
} from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { RequestTimeoutError } from '../errors.js'
import { createStatusReporter, type OnRequestStatus } from '../requestStatus.js'
import { getInternal, type Internal, publish } from '../session.js'

/** Parameters of {@link request}: a JSON-RPC call for the peer. */
export type RequestParameters = {
  method: string
  /** @default [] */
  params?: unknown
  /** @default a fresh {@link payloadId} */
  id?: number | undefined
}

/** Options of one request. */
export type RequestOptions = {
  /** Reject with `RequestTimeoutError` after this many ms. @default no time-out (the person may take their time) */
  timeout?: number | undefined
  /** Reject with the signal's reason when it aborts; a late answer is then ignored. */
  signal?: AbortSignal | undefined
  /** v1's `forcePushNotification`: `silent` becomes its negation (reference §4.8). */
  forcePushNotification?: boolean | undefined
  /**
   * Called with each step of the request's life (docs/request-lifecycle.md). Over v1: `sent` when the frame is
   * handed to the bridge socket, then `answered`, `expired` (the `timeout`) or `failed`; v1's bridge acknowledges
   * nothing, so there is no `relayed`.
   */
  onStatus?: OnRequestStatus | undefined
}

/**
 * Sends a JSON-RPC request to the peer and resolves with its result, or rejects with an `RpcError` carrying the
 * peer's code, message and data. `eth_accounts` and `eth_chainId` are answered from the session, as v1 does.
 *
 * @example
 * const balance = await client.request({ method: 'eth_getBalance', params: [address, 'latest'] }, { timeout: 30_000 })
 */
export async function request<result = unknown>(
  client: Client,
  parameters: RequestParameters,
  options: RequestOptions = {},
): Promise<result> {
  const internal = getInternal(client)
  if (!parameters || typeof parameters.method !== 'string' || !parameters.method) {
    throw new InvalidJsonRpcError(V1_ERRORS.MISSING_METHOD)
  }
  await internal.ready
  if (!internal.connected) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
  const { method } = parameters
  if (method === 'eth_accounts') return internal.accounts as result
  if (method === 'eth_chainId') return `0x${internal.chainId.toString(16)}` as result
  const params = normalizeParams(method, parameters.params ?? [])
  const { timeout, signal, forcePushNotification } = options
  signal?.throwIfAborted()
  const id = parameters.id ?? payloadId()
  const report = createStatusReporter(
    options.onStatus,
    id,
    method,
    timeout === undefined ? undefined : Date.now() + timeout,
  )
  const signing = internal.signingMethods.has(method)
  const silent =
    forcePushNotification !== undefined ? !forcePushNotification : method.startsWith('wc_') || !signing
  const payload = { id, jsonrpc: '2.0', method, params }

  return new Promise<result>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const settle = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (internal.pending.get(id) === entry) internal.pending.delete(id)
    }
    const onAbort = () => {
      settle()
      report('failed')
      reject(signal?.reason)
    }
    const entry = {
      method,
      resolve: (value: unknown) => {
        settle()
        report('answered')
        resolve(value as result)
      },
      reject: (error: unknown) => {
        settle()
        // The wallet's error is its answer; a time-out is the request's expiry.
        report(
          error instanceof RpcError
            ? 'answered'
            : error instanceof RequestTimeoutError
              ? 'expired'
              : 'failed',
        )
        reject(error)
      },
    }
    internal.pending.set(id, entry)
    if (timeout !== undefined)
      timer = setTimeout(() => entry.reject(new RequestTimeoutError(method, timeout)), timeout)
    signal?.addEventListener('abort', onAbort, { once: true })
    publish(internal, internal.peerId, payload, silent).then(
      () => {
        report('sent')
        if (signing) void redirect(internal)
      },
      (error: unknown) => entry.reject(error),
    )
  })
}

function normalizeParams(method: string, params: unknown): unknown {
  if (!Array.isArray(params)) return params
  if ((method === 'eth_sendTransaction' || method === 'eth_signTransaction') && params.length > 0) {
    return [normalizeTransaction(params[0] as TransactionInput), ...params.slice(1)]
  }
  if (method === 'personal_sign') return normalizePersonalSign(params)
  return params
}

/** Brings the chosen wallet to the foreground after a signing request (reference §6.6). */
async function redirect(internal: Internal): Promise<void> {
  if (!internal.redirect || !internal.storage) return
  try {
    const text = await internal.storage.get(DEEPLINK_CHOICE_STORAGE_KEY)
    const choice = text ? (JSON.parse(text) as { href?: unknown }) : undefined
    if (typeof choice?.href === 'string' && choice.href) internal.redirect(choice.href)
  } catch {
    // A broken stored choice only costs the redirect.
  }
}
