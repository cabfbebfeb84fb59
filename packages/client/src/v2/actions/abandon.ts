import type { SignClient } from '../createSignClient.js'
import { SIGN_ERRORS, SignError } from '../errors.js'
import { getInternal, save } from '../internal.js'

/** Parameters of {@link abandon}. */
export type AbandonParameters = {
  /** The pairing whose URI was shown: the `topic` of `connect`'s or `authenticate`'s `uri`. */
  pairingTopic: string
}

/**
 * Dapp: gives up on what waits for a wallet on a pairing (the person closed the QR code: closing means no). The
 * proposals and one-click auth requests sent on it end at once — `approval()` / `response()` reject with
 * `ERR_PROPOSAL_ABANDONED` — and a wallet that answers one later is refused until its expiry, also after a reload: its
 * settlement is answered with 5000 (`User rejected.`), or the session its one-click auth answer made is deleted with
 * that reason. No session is kept here and no `session_connect` is emitted.
 *
 * @example
 * const { uri, approval } = await connect(client, { optionalNamespaces })
 * showQrCode(uri, { onClose: () => abandon(client, { pairingTopic: parseUri(uri).topic }) })
 */
export async function abandon(client: SignClient, parameters: AbandonParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { pairingTopic } = parameters
  const { proposed, authenticating } = internal.state
  const abandoned = new SignError(SIGN_ERRORS.PROPOSAL_ABANDONED)
  const waiting: ((error: unknown) => void)[] = []
  for (const [id, auth] of Object.entries(authenticating)) {
    if (auth.pairingTopic !== pairingTopic || auth.abandoned) continue
    auth.abandoned = true
    // A late answer is refused by the receiver (see `abandoned.ts`), not handed to `response()`.
    internal.authResponses.delete(Number(id))
  }
  for (const proposal of Object.values(proposed)) {
    if (proposal.pairingTopic !== pairingTopic || proposal.abandoned) continue
    proposal.abandoned = true
    const approval = internal.approvals.get(proposal.id)
    internal.approvals.delete(proposal.id)
    if (approval) waiting.push(approval.reject)
  }
  save(internal)
  for (const reject of waiting) reject(abandoned)
}
