import { decodeEnvelope, decryptEnvelope, deriveSymKey, deriveTopic } from '@pairlink/protocol/v2'
import { refuseAuthAnswer } from './abandoned.js'
import { SignError } from './errors.js'
import { onRequest } from './handlers.js'
import { expiryIn, type Internal, save, subscribe } from './internal.js'
import type { RelayMessage } from './relayFrames.js'
import { passOn, takeRequest } from './tabs.js'
import type { ErrorResponse } from './types.js'

/** A JSON-RPC request or response as the peer sent it, checked for shape only. */
type Payload =
  | { id: number; method: string; params: unknown }
  | { id: number; result: unknown }
  | { id: number; error: ErrorResponse }

/**
 * Takes a message the relay pushed (`relayed`: another tab's socket got it, see `tabs.ts`): opened with its topic's
 * key and handled after the ones before it. Anything that is not ours or not sound — unknown topic, undecryptable, not
 * JSON-RPC — is counted and dropped, never thrown.
 */
export function receive(internal: Internal, message: RelayMessage, relayed = false): void {
  internal.incoming
    .add(() => handle(internal, message, relayed))
    // A handler that fails (its answer could not be published) loses that answer, not the next message.
    .catch(() => {})
}

async function handle(internal: Internal, relayMessage: RelayMessage, relayed: boolean): Promise<void> {
  const { topic, message } = relayMessage
  await internal.ready
  const auth = Object.values(internal.state.authenticating).find((entry) => entry.responseTopic === topic)
  if (auth) return onAuthAnswer(internal, auth.publicKey, message)
  const symKey = internal.state.keys[topic]
  if (!symKey) {
    internal.stats.ignored++
    return
  }
  let payload: Payload | undefined
  try {
    payload = parsePayload(decryptEnvelope({ symKey, envelope: message }))
  } catch {}
  if (!payload) {
    internal.stats.dropped++
    return
  }
  if ('method' in payload) {
    if (!takeRequest(internal, relayMessage, payload.id, relayed)) {
      internal.stats.ignored++
      return
    }
    internal.stats.received++
    // Tabs sharing the session answer the peer once: the one holding their lock (Web Locks), else the one whose own
    // socket had the request. A settlement is for the tab that proposed, and it alone has the topic then.
    const { tabs } = internal
    const quiet =
      !!tabs && !!internal.state.sessions[topic] && (tabs.leader === undefined ? relayed : !tabs.leader)
    return onRequest(internal, topic, quiet ? { ...payload, quiet } : payload)
  }
  internal.stats.received++
  if (!(await onResponse(internal, topic, payload))) {
    internal.stats.ignored++
    if (!relayed) passOn(internal, relayMessage)
  }
}

/**
 * A wallet's answer to a one-click auth request, on its response topic: a type 1 envelope, opened with the key of the
 * request's private key and the sender key it carries, handed to the `authenticate` call waiting for it.
 */
async function onAuthAnswer(internal: Internal, publicKey: string, envelope: string): Promise<void> {
  let payload: Payload | undefined
  try {
    const { senderPublicKey } = decodeEnvelope(envelope)
    const privateKey = internal.state.keys[publicKey]
    if (senderPublicKey && privateKey)
      payload = parsePayload(decryptEnvelope({ symKey: deriveSymKey(privateKey, senderPublicKey), envelope }))
  } catch {}
  if (!payload || 'method' in payload) {
    internal.stats.dropped++
    return
  }
  // Abandoned (the person closed the QR code), also before a reload: the session the wallet made is refused.
  if (internal.state.authenticating[payload.id]?.abandoned)
    return refuseAuthAnswer(internal, payload.id, payload)
  const waiting = internal.authResponses.get(payload.id)
  if (!waiting) {
    // After a reload nobody waits for it: the CACAOs cannot be checked by the app that asked.
    internal.stats.ignored++
    return
  }
  internal.stats.received++
  await waiting(payload)
}

function parsePayload(text: string): Payload | undefined {
  const value = JSON.parse(text) as Record<string, unknown> | null
  if (!value || typeof value !== 'object' || value.jsonrpc !== '2.0' || typeof value.id !== 'number') return
  if (typeof value.method === 'string') return value as Payload
  if ('result' in value) return value as Payload
  const error = value.error as Partial<ErrorResponse> | undefined
  if (error && typeof error.code === 'number' && typeof error.message === 'string') return value as Payload
}

/** Settles what the answer is for; `false` when nothing here waits for it. */
async function onResponse(
  internal: Internal,
  topic: string,
  payload: Exclude<Payload, { method: string }>,
): Promise<boolean> {
  const { state } = internal
  const sent = internal.sent.get(payload.id)
  if (sent && sent.topic === topic) {
    sent.answered?.()
    if ('error' in payload) sent.reject(new SignError(payload.error))
    else sent.resolve(payload.result)
    return true
  }
  const proposal = state.proposed[payload.id]
  if (proposal && proposal.pairingTopic === topic && !proposal.sessionTopic) {
    if ('error' in payload) {
      delete state.proposed[payload.id]
      delete state.keys[proposal.proposer.publicKey]
      save(internal)
      internal.approvals.get(payload.id)?.reject(new SignError(payload.error))
      internal.approvals.delete(payload.id)
      return true
    }
    const { responderPublicKey } = (payload.result ?? {}) as { responderPublicKey?: unknown }
    const privateKey = state.keys[proposal.proposer.publicKey]
    if (typeof responderPublicKey !== 'string' || !privateKey) {
      internal.stats.dropped++
      return true
    }
    // The session key: X25519 of the dapp's proposal key and the wallet's answer key, then HKDF (the SDK's).
    const sessionKey = deriveSymKey(privateKey, responderPublicKey)
    const sessionTopic = deriveTopic(sessionKey)
    state.keys[sessionTopic] = sessionKey
    proposal.sessionTopic = sessionTopic
    const pairing = state.pairings[topic]
    if (pairing) Object.assign(pairing, { active: true, expiry: expiryIn(300) })
    save(internal)
    // The wallet published the settlement before this subscription: the relay hands it over now (its mailbox).
    await subscribe(internal, sessionTopic)
    return true
  }
  // The settlement's answer after a reload forgot the request: it acknowledges the session all the same.
  const session = state.sessions[topic]
  if (session && !session.acknowledged && 'result' in payload) {
    session.acknowledged = true
    save(internal)
    return true
  }
  return false
}
