import type { SignClient } from '../createSignClient.js'
import { SIGN_ERRORS, SignError } from '../errors.js'
import { enqueue, getInternal, save, seal } from '../internal.js'
import { flushOutbox } from '../outbox.js'
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
 * topic throws a {@link SignError} `ERR_REQUEST_UNKNOWN`. The answer is kept in the stored outbox until the relay took
 * it: with the socket open this resolves once the relay has it; while the relay cannot be reached it resolves at once
 * and the answer goes when the socket is back (or with the next client on the same storage), until the request's
 * expiry.
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
  const request = internal.state.requests[response?.id]
  if (request?.topic !== topic) throw new SignError(SIGN_ERRORS.NO_REQUEST)
  const payload =
    'error' in response
      ? { id: response.id, jsonrpc: '2.0', error: response.error }
      : { id: response.id, jsonrpc: '2.0', result: response.result }
  const sealed = seal(internal, topic, payload, 'wc_sessionRequest', { response: true })
  // Answered once: the request leaves with its answer in the same write, so a reload neither asks again nor loses it.
  enqueue(internal, `answer:${response.id}`, sealed, request.params.request.expiryTimestamp)
  delete internal.state.requests[response.id]
  save(internal)
  const sent = flushOutbox(internal)
  if (internal.relay.state === 'open') await sent
}
