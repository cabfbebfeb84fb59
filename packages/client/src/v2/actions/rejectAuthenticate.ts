import { generateKeyPair } from '@pairlink/protocol/v2'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { getInternal, save } from '../internal.js'
import { AUTH_ANSWER, publishToRequester } from '../responseTopic.js'
import type { ErrorResponse } from '../types.js'

/** Parameters of {@link rejectAuthenticate}. */
export type RejectAuthenticateParameters = {
  /** The request's id, from `session_authenticate`. */
  id: number
  /** @default the SDK's USER_REJECTED, `{ code: 5000, message: 'User rejected.' }` */
  reason?: ErrorResponse | undefined
}

/**
 * Wallet: refuses a one-click auth request; the dapp's `response()` rejects with this reason (and its fallback
 * proposal, which this wallet did not show, goes with it).
 *
 * @example
 * await rejectAuthenticate(client, { id, reason: { code: 5000, message: 'User rejected.' } })
 */
export async function rejectAuthenticate(
  client: SignClient,
  parameters: RejectAuthenticateParameters,
): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { id, reason = SDK_ERRORS.USER_REJECTED } = parameters
  const pending = internal.state.authRequests[id]
  if (!pending) throw new SignError(SIGN_ERRORS.NO_AUTH_REQUEST)
  await publishToRequester(internal, {
    requesterPublicKey: pending.params.requester.publicKey,
    self: generateKeyPair(),
    payload: { id, jsonrpc: '2.0', error: reason },
    options: AUTH_ANSWER.reject,
  })
  delete internal.state.authRequests[id]
  save(internal)
}
