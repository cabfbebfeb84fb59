import type { SignClient } from '../createSignClient.js'
import { getInternal, getSessionOrThrow, sendRequest } from '../internal.js'

/** Parameters of {@link ping}. */
export type PingParameters = { topic: string }

/**
 * Either role: pings the peer over a session (`wc_sessionPing`) and resolves when it answered; rejects with
 * `ERR_REQUEST_EXPIRED` after five minutes without an answer, as the SDK does.
 *
 * @example
 * await ping(client, { topic: session.topic })
 */
export async function ping(client: SignClient, parameters: PingParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  getSessionOrThrow(internal, parameters.topic)
  await sendRequest(internal, parameters.topic, 'wc_sessionPing', {}, { timeout: 300 })
}
