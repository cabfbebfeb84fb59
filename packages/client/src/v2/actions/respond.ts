import type { SignClient } from '../createSignClient.js'
import { SIGN_ERRORS, SignError } from '../errors.js'
import { getInternal, publish, save } from '../internal.js'
import type { JsonRpcResponse } from '../types.js'

/** Parameters of {@link respond}. */
export type RespondParameters = {
  /** The session's topic, from `session_request`. */
  topic: string
  /** `{ id, jsonrpc: '2.0', result }`, or `{ id, jsonrpc: '2.0', error: { code, message } }` to refuse (5000). */
  response: JsonRpcResponse
}

/**
 * Wallet: answers a request the dapp sent (`session_request`), once; a request that expired or belongs to another
 * topic throws a {@link SignError} `ERR_REQUEST_UNKNOWN`.
 *
 * @example
 * client.on('session_request', async ({ id, topic, params }) => {
 *   const result = await account.signMessage({ message: { raw: params.request.params[0] } })
 *   await respond(client, { topic, response: { id, jsonrpc: '2.0', result } })
 * })
 */
export async function respond(client: SignClient, parameters: RespondParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, response } = parameters
  if (internal.state.requests[response?.id]?.topic !== topic) throw new SignError(SIGN_ERRORS.NO_REQUEST)
  const payload =
    'error' in response
      ? { id: response.id, jsonrpc: '2.0', error: response.error }
      : { id: response.id, jsonrpc: '2.0', result: response.result }
  await publish(internal, topic, payload, 'wc_sessionRequest', { response: true })
  delete internal.state.requests[response.id]
  save(internal)
}
