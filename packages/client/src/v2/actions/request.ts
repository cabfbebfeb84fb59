import type { OnRequestStatus } from '../../requestStatus.js'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SignError } from '../errors.js'
import { expiryIn, getInternal, getSessionOrThrow, sendRequest } from '../internal.js'
import { hasChain, hasMethod } from '../namespaces.js'

/** Parameters of {@link request}. */
export type RequestParameters = {
  /** The session's topic. */
  topic: string
  /** A CAIP-2 chain of the session (`eip155:1`). */
  chainId: string
  request: { method: string; params?: unknown }
  /** Seconds the wallet has to answer, 300 to 604800. @default 900 (the SDK's request ttl) */
  expiry?: number | undefined
  /**
   * Called with each step of the request's life (docs/request-lifecycle.md): `sent`, `relayed` when the relay
   * answered the publish, then `answered`, `expired` (at `expiry`) or `failed`.
   */
  onStatus?: OnRequestStatus | undefined
}

// The SDK's bounds on a request's expiry (`SESSION_REQUEST_EXPIRY_BOUNDARIES`) and its default ttl.
const MIN_EXPIRY = 300
const MAX_EXPIRY = 604_800
const DEFAULT_EXPIRY = 900

/**
 * Dapp: sends a JSON-RPC request to the wallet over a session and resolves with its result. Rejects with a
 * {@link SignError}: the wallet's error (`code` 5000 when the person refused), `5100`/`5101` for a chain or method
 * the session does not hold, `ERR_REQUEST_EXPIRED` when `expiry` passed unanswered. While the relay cannot be reached
 * the request waits in the stored outbox and goes once the socket is back (or, after a reload, with the next client
 * on the same storage); only its `expiry` ends the wait.
 *
 * @example
 * const signature = await request<Hex>(client, {
 *   topic: session.topic,
 *   chainId: 'eip155:1',
 *   request: { method: 'personal_sign', params: [toHex('Hello'), address] },
 * })
 */
export async function request<result = unknown>(
  client: SignClient,
  parameters: RequestParameters,
): Promise<result> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, chainId, request } = parameters
  const session = getSessionOrThrow(internal, topic)
  if (!hasChain(session.namespaces, chainId))
    throw new SignError({
      ...SDK_ERRORS.UNSUPPORTED_CHAINS,
      message: `${SDK_ERRORS.UNSUPPORTED_CHAINS.message} ${chainId}`,
    })
  if (typeof request?.method !== 'string' || !hasMethod(session.namespaces, chainId, request.method))
    throw new SignError({
      ...SDK_ERRORS.UNSUPPORTED_METHODS,
      message: `${SDK_ERRORS.UNSUPPORTED_METHODS.message} ${String(request?.method)}`,
    })
  const { onStatus } = parameters
  const expiry = parameters.expiry ?? DEFAULT_EXPIRY
  if (!Number.isInteger(expiry) || expiry < MIN_EXPIRY || expiry > MAX_EXPIRY)
    throw new RangeError(`expiry must be a whole number of seconds between ${MIN_EXPIRY} and ${MAX_EXPIRY}`)
  const params = {
    request: { method: request.method, params: request.params, expiryTimestamp: expiryIn(expiry) },
    chainId,
  }
  // Through the outbox: a relay down for longer than its calls' time-out delays the request, up to its expiry.
  return sendRequest<result>(internal, topic, 'wc_sessionRequest', params, {
    ttl: expiry,
    timeout: expiry,
    outbox: true,
    // The steps name the method asked of the wallet, not the envelope's `wc_sessionRequest`.
    onStatus: onStatus && ((event) => onStatus({ ...event, method: request.method })),
  })
}
