import type { SignClient } from '../createSignClient.js'
import { expiryIn, getInternal, getSessionOrThrow, save, sendRequest } from '../internal.js'

/** Parameters of {@link extend}. */
export type ExtendParameters = { topic: string }

// The SDK's session lifetime; an extend sets the expiry to now plus this on both sides.
const SEVEN_DAYS = 604_800

/**
 * Either role: extends a session to seven days from now (`wc_sessionExtend`) and resolves with the new expiry
 * (seconds) once the peer acknowledged it.
 *
 * @example
 * const expiry = await extend(client, { topic: session.topic })
 */
export async function extend(client: SignClient, parameters: ExtendParameters): Promise<number> {
  const internal = getInternal(client)
  await internal.ready
  const session = getSessionOrThrow(internal, parameters.topic)
  session.expiry = expiryIn(SEVEN_DAYS)
  save(internal)
  await sendRequest(internal, parameters.topic, 'wc_sessionExtend', {}, { timeout: 300 })
  return session.expiry
}
