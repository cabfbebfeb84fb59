import { formatRpcError, InvalidJsonRpcError, SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { getInternal, publish } from '../session.js'

/** Parameters of {@link rejectRequest}. */
export type RejectRequestParameters = {
  id: number
  error: {
    /** Kept as given (v1 replaced every code with -32000). @default from the message as v1 does, else -32000 */
    code?: number | undefined
    /** @default 'Failed or Rejected Request' */
    message?: string | undefined
    data?: unknown
  }
}

/**
 * Wallet: answers a `call_request` with an error, keeping the caller's code.
 *
 * @example
 * wallet.rejectRequest({ id, error: { code: 4001, message: 'User rejected the request.' } })
 */
export async function rejectRequest(client: Client, parameters: RejectRequestParameters): Promise<void> {
  const internal = getInternal(client)
  if (typeof parameters?.error !== 'object' || parameters.error === null) {
    throw new InvalidJsonRpcError(V1_ERRORS.MISSING_ERROR)
  }
  if (typeof parameters.id !== 'number') throw new InvalidJsonRpcError(V1_ERRORS.MISSING_ID)
  if (!internal.peerId) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
  const response = { id: parameters.id, jsonrpc: '2.0', error: formatRpcError(parameters.error) }
  return publish(internal, internal.peerId, response, true)
}
