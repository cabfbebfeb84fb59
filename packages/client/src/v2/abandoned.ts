import { payloadId } from '@pairlink/protocol'
import { deriveSymKey, deriveTopic } from '@pairlink/protocol/v2'
import { SDK_ERRORS } from './errors.js'
import { dropTopic, enqueue, type Internal, save, seal } from './internal.js'
import type { ErrorResponse, Proposal } from './types.js'

// What a wallet that answers after the dapp gave up hears: the person said no (the SDK's USER_REJECTED, 5000).
const REFUSAL = SDK_ERRORS.USER_REJECTED
const KEY_RE = /^[0-9a-f]{64}$/

/**
 * Dapp: a wallet settled a proposal this dapp abandoned (`abandon`): the settlement is answered with 5000 (the SDK's
 * wallet then deletes the session; ours also rejects `acknowledged()` with it), and nothing of it is kept here.
 */
export function refuseSettlement(
  internal: Internal,
  topic: string,
  settleId: number,
  proposal: Proposal,
): void {
  const { state } = internal
  const payload = { id: settleId, jsonrpc: '2.0', error: REFUSAL }
  const sealed = seal(internal, topic, payload, 'wc_sessionSettle', { response: true })
  enqueue(internal, `answer:${settleId}`, sealed)
  delete state.proposed[proposal.id]
  delete state.keys[proposal.proposer.publicKey]
  dropTopic(internal, topic)
  save(internal)
  void internal.flush()
}

/**
 * Dapp: a wallet answered a one-click auth request this dapp abandoned (`abandon`). It made a session with its answer
 * (one-click auth has no settlement to refuse): that session is deleted towards the wallet with 5000 (the
 * `wc_sessionDelete` waits in the outbox if the relay is down), and nothing of it is kept here.
 */
export function refuseAuthAnswer(
  internal: Internal,
  id: number,
  answer: { result?: unknown; error?: ErrorResponse },
): void {
  const { state } = internal
  const auth = state.authenticating[id]
  if (!auth) return
  const privateKey = state.keys[auth.publicKey]
  const { responder } = (answer.result ?? {}) as { responder?: { publicKey?: unknown } }
  const peerKey = responder?.publicKey
  if (!answer.error && privateKey && typeof peerKey === 'string' && KEY_RE.test(peerKey)) {
    const sessionKey = deriveSymKey(privateKey, peerKey)
    const topic = deriveTopic(sessionKey)
    state.keys[topic] = sessionKey
    const method = 'wc_sessionDelete'
    const sealed = seal(internal, topic, { id: payloadId(), jsonrpc: '2.0', method, params: REFUSAL }, method)
    delete state.keys[topic]
    enqueue(internal, topic, sealed)
  }
  delete state.authenticating[id]
  delete state.proposed[auth.proposalId]
  delete state.keys[auth.publicKey]
  internal.authResponses.delete(id)
  dropTopic(internal, auth.responseTopic)
  save(internal)
  void internal.flush()
}
