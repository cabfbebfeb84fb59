import { SDK_ERRORS, SIGN_ERRORS, SignError } from './errors.js'
import { deleteSession, dropTopic, type Internal, save } from './internal.js'

// setTimeout's longest delay (about 24.8 days); a later expiry is simply looked at again then.
const MAX_DELAY = 2 ** 31 - 1

/** Arms one timer for the soonest expiry among proposals, pairings, sessions and received requests. */
export function scheduleExpiry(internal: Internal): void {
  clearTimeout(internal.expiryTimer)
  internal.expiryTimer = undefined
  if (internal.closed) return
  const { proposals, proposed, pairings, sessions, requests, authRequests } = internal.state
  const times = [
    ...Object.values(proposals).map((p) => p.expiryTimestamp),
    ...Object.values(proposed).map((p) => p.expiryTimestamp),
    ...Object.values(pairings).map((p) => p.expiry),
    ...Object.values(sessions).map((s) => s.expiry),
    ...Object.values(requests).flatMap(({ params }) => params.request.expiryTimestamp ?? []),
    ...Object.values(authRequests).map(({ params }) => params.expiryTimestamp),
  ]
  if (times.length === 0) return
  const delay = Math.min(Math.max(Math.min(...times) * 1000 - Date.now(), 0), MAX_DELAY)
  const timer = setTimeout(() => expire(internal), delay)
  // An expiry alone must not keep a Node process alive.
  ;(timer as { unref?: () => void }).unref?.()
  internal.expiryTimer = timer
}

/**
 * Removes what has expired and says so: `proposal_expire` (a dapp's `approval()` rejects, and `authenticate`'s
 * `response()` with its fallback proposal), `session_expire`, `session_request_expire`; a pairing past its expiry is
 * unsubscribed and forgotten, a one-click auth request past its own forgotten.
 */
export function expire(internal: Internal): void {
  const now = Date.now() / 1000
  const { state, emitter } = internal
  for (const proposal of Object.values(state.proposals)) {
    if (proposal.expiryTimestamp > now) continue
    delete state.proposals[proposal.id]
    emitter.emit('proposal_expire', { id: proposal.id })
  }
  for (const proposal of Object.values(state.proposed)) {
    if (proposal.expiryTimestamp > now) continue
    delete state.proposed[proposal.id]
    delete state.keys[proposal.proposer.publicKey]
    if (proposal.sessionTopic) dropTopic(internal, proposal.sessionTopic)
    // A one-click auth lives as long as its fallback proposal (as `connect`'s, its URI is then refreshed).
    for (const [id, auth] of Object.entries(state.authenticating)) {
      if (auth.proposalId !== proposal.id) continue
      delete state.authenticating[id]
      dropTopic(internal, auth.responseTopic)
    }
    internal.approvals.get(proposal.id)?.reject(new SignError(SIGN_ERRORS.PROPOSAL_EXPIRED))
    internal.approvals.delete(proposal.id)
    emitter.emit('proposal_expire', { id: proposal.id })
  }
  for (const pairing of Object.values(state.pairings)) {
    if (pairing.expiry > now) continue
    delete state.pairings[pairing.topic]
    dropTopic(internal, pairing.topic)
  }
  for (const session of Object.values(state.sessions)) {
    if (session.expiry > now) continue
    deleteSession(internal, session.topic, SDK_ERRORS.USER_DISCONNECTED)
    emitter.emit('session_expire', { topic: session.topic })
  }
  for (const { id, params } of Object.values(state.authRequests))
    if (params.expiryTimestamp <= now) delete state.authRequests[id]
  for (const { id, params } of Object.values(state.requests)) {
    const expiry = params.request.expiryTimestamp
    if (expiry === undefined || expiry > now) continue
    delete state.requests[id]
    emitter.emit('session_request_expire', { id })
  }
  save(internal)
}
