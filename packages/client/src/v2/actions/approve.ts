import { payloadId } from '@pairlink/protocol'
import { deriveSymKey, deriveTopic, encryptEnvelope, generateKeyPair } from '@pairlink/protocol/v2'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { deleteSession, expiryIn, getInternal, save } from '../internal.js'
import { findUnsatisfied, isSessionNamespaces } from '../namespaces.js'
import type { ProposalRequestsResponses, Session, SessionNamespace } from '../types.js'

/** Parameters of {@link approve}. */
export type ApproveParameters = {
  /** The proposal's id, from `session_proposal`. */
  id: number
  /** What the wallet grants: accounts (CAIP-10), methods and events per namespace. */
  namespaces: Record<string, SessionNamespace>
  sessionProperties?: Record<string, string> | undefined
  /**
   * The answers to the proposal's `requests`: `authentication`, the CACAOs signed for its sign-in (one-click auth in
   * the proposal). Sent in the settlement; the session keeps them. Left out, the dapp gets the session without.
   */
  proposalRequestsResponses?: ProposalRequestsResponses | undefined
}

/** What {@link approve} resolves with. */
export type ApproveReturnType = {
  /** The new session's topic. */
  topic: string
  /** Resolves with the session once the dapp acknowledged the settlement (`wc_sessionSettle` answered). */
  acknowledged: () => Promise<Session>
}

// The SDK's session lifetime and `wc_approveSession` ttl, seconds.
const SEVEN_DAYS = 604_800
const FIVE_MINUTES = 300

/**
 * Wallet: approves a proposal. Derives the session key from a fresh X25519 key pair and the dapp's key, then sends
 * the answer (on the pairing) and the settlement (on the session topic) in one `wc_approveSession`. Whatever the dapp
 * required must be granted: else this throws the spec's error for it (5100 unsupported chains, 5101 methods, 5102
 * events, 5104 a namespace, naming what is missing) and nothing is sent; refuse the proposal with that error
 * (`reject(client, { id, reason: { code, message } })`), as the spec asks of a wallet.
 *
 * @example
 * const { topic, acknowledged } = await approve(client, {
 *   id,
 *   namespaces: { eip155: { chains: ['eip155:1'], accounts: [`eip155:1:${address}`], methods, events } },
 * })
 */
export async function approve(client: SignClient, parameters: ApproveParameters): Promise<ApproveReturnType> {
  const internal = getInternal(client)
  await internal.ready
  const { state } = internal
  const { id, namespaces } = parameters
  const proposal = state.proposals[id]
  if (!proposal) throw new SignError(SIGN_ERRORS.NO_PROPOSAL)
  const pairingKey = state.keys[proposal.pairingTopic]
  if (!pairingKey) throw new SignError(SIGN_ERRORS.NO_PROPOSAL)
  if (!isSessionNamespaces(namespaces)) throw new SignError(SDK_ERRORS.UNSUPPORTED_ACCOUNTS)
  const lacking = findUnsatisfied(proposal.requiredNamespaces, namespaces)
  if (lacking) throw new SignError(lacking)

  const self = generateKeyPair()
  const sessionKey = deriveSymKey(self.privateKey, proposal.proposer.publicKey)
  const topic = deriveTopic(sessionKey)
  const relay = { protocol: 'irn' }
  const { proposalRequestsResponses: responses } = parameters
  const authentication = responses?.authentication?.length ? responses.authentication : undefined
  const settle = {
    relay,
    namespaces,
    controller: { publicKey: self.publicKey, metadata: internal.metadata },
    expiry: expiryIn(SEVEN_DAYS),
    ...(parameters.sessionProperties ? { sessionProperties: parameters.sessionProperties } : {}),
    ...(responses ? { proposalRequestsResponses: responses } : {}),
  }
  const session: Session = {
    topic,
    pairingTopic: proposal.pairingTopic,
    relay,
    expiry: settle.expiry,
    acknowledged: false,
    controller: self.publicKey,
    namespaces,
    requiredNamespaces: proposal.requiredNamespaces,
    optionalNamespaces: proposal.optionalNamespaces,
    ...(parameters.sessionProperties ? { sessionProperties: parameters.sessionProperties } : {}),
    ...(authentication ? { authentication } : {}),
    self: { publicKey: self.publicKey, metadata: internal.metadata },
    peer: proposal.proposer,
  }
  const settleId = payloadId()
  const acknowledged = new Promise<Session>((resolve, reject) => {
    internal.sent.set(settleId, {
      topic,
      method: 'wc_sessionSettle',
      resolve() {
        internal.sent.delete(settleId)
        session.acknowledged = true
        save(internal)
        resolve(session)
      },
      reject(error) {
        internal.sent.delete(settleId)
        deleteSession(internal, topic, SDK_ERRORS.SESSION_SETTLEMENT_FAILED)
        reject(error)
      },
    })
  })
  acknowledged.catch(() => {})
  state.keys[topic] = sessionKey
  state.keys[self.publicKey] = self.privateKey
  state.sessions[topic] = session
  try {
    // The relay publishes the answer on the pairing (1101) and the settlement on the session topic (1102), and
    // subscribes this client to the session topic (relay-v2.md §3.2).
    await internal.relay.request('wc_approveSession', {
      sessionTopic: topic,
      pairingTopic: proposal.pairingTopic,
      sessionProposalResponse: encryptEnvelope({
        symKey: pairingKey,
        message: JSON.stringify({
          id,
          jsonrpc: '2.0',
          result: { relay, responderPublicKey: self.publicKey },
        }),
      }),
      sessionSettlementRequest: encryptEnvelope({
        symKey: sessionKey,
        message: JSON.stringify({ id: settleId, jsonrpc: '2.0', method: 'wc_sessionSettle', params: settle }),
      }),
      ttl: FIVE_MINUTES,
    })
  } catch (error) {
    internal.sent.delete(settleId)
    delete state.sessions[topic]
    delete state.keys[topic]
    delete state.keys[self.publicKey]
    throw error
  }
  delete state.proposals[id]
  const pairing = state.pairings[proposal.pairingTopic]
  if (pairing) Object.assign(pairing, { active: true, expiry: expiryIn(FIVE_MINUTES) })
  save(internal)
  return { topic, acknowledged: () => acknowledged }
}
