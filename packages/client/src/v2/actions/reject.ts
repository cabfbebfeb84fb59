import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { getInternal, PROPOSE_REJECT_TAG, save, sendError } from '../internal.js'
import type { ErrorResponse } from '../types.js'

/** Parameters of {@link reject}. */
export type RejectParameters = {
  /** The proposal's id, from `session_proposal`. */
  id: number
  /** @default the SDK's USER_REJECTED, `{ code: 5000, message: 'User rejected.' }` */
  reason?: ErrorResponse | undefined
}

/**
 * Wallet: refuses a proposal; the dapp's `approval()` rejects with this reason.
 *
 * @example
 * await reject(client, { id })
 */
export async function reject(client: SignClient, parameters: RejectParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { id, reason = SDK_ERRORS.USER_REJECTED } = parameters
  const proposal = internal.state.proposals[id]
  if (!proposal) throw new SignError(SIGN_ERRORS.NO_PROPOSAL)
  await sendError(internal, proposal.pairingTopic, id, 'wc_sessionPropose', reason, PROPOSE_REJECT_TAG)
  delete internal.state.proposals[id]
  save(internal)
}
