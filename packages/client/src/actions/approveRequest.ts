import { InvalidJsonRpcError, SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { getInternal, publish } from '../session.js'

/** Parameters of {@link approveRequest}: the id of the `call_request` and its result. */
export type ApproveRequestParameters = {
  id: number
  result: unknown
}

/**
 * Wallet: answers a `call_request` with a result. Rejects with the v1 texts for a missing `result` or `id`.
 *
 * @example
 * wallet.on('call_request', async ({ id, params }) => wallet.approveRequest({ id, result: await sign(params) }))
 */
export async function approveRequest(client: Client, parameters: ApproveRequestParameters): Promise<void> {
  const internal = getInternal(client)
  // v1's order of checks: result first, then id.
  if (parameters?.result === undefined) throw new InvalidJsonRpcError(V1_ERRORS.MISSING_RESULT)
  if (typeof parameters.id !== 'number') throw new InvalidJsonRpcError(V1_ERRORS.MISSING_ID)
  if (!internal.peerId) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
  const { id, result } = parameters
  return publish(internal, internal.peerId, { id, jsonrpc: '2.0', result }, true)
}
