import {
  buildAuthNamespaces,
  type Cacao,
  deriveSymKey,
  deriveTopic,
  generateKeyPair,
  parseIss,
} from '@pairlink/protocol/v2'
import type { SignClient } from '../createSignClient.js'
import { SIGN_ERRORS, SignError } from '../errors.js'
import { expiryIn, getInternal, save, subscribe } from '../internal.js'
import { AUTH_ANSWER, publishToRequester } from '../responseTopic.js'
import type { Session } from '../types.js'

// The SDK's session lifetime, seconds.
const SEVEN_DAYS = 604_800

/** Parameters of {@link approveAuthenticate}. */
export type ApproveAuthenticateParameters = {
  /** The request's id, from `session_authenticate`. */
  id: number
  /**
   * The signed CACAOs, one per chain the wallet signs in on: `{ h: { t: 'caip122' }, p: { ...authPayload fields, iss:
   * 'did:pkh:eip155:<chain>:<address>' }, s: { t: 'eip191', s: signature of formatAuthMessage } }`.
   */
  auths: Cacao[]
}

/**
 * Wallet: answers a one-click auth request with the signed CACAOs. Derives the session key from a fresh key pair and
 * the dapp's key and sends the CACAOs to the dapp's response topic; both sides build the session from them (the
 * accounts they sign for, the methods their ReCaps grant), so no settlement is sent. Resolves with that session, or
 * `undefined` when the CACAOs grant no method (as the SDK, no session then: a sign-in only).
 *
 * @example
 * client.on('session_authenticate', async ({ id, params }) => {
 *   const iss = `did:pkh:eip155:1:${address}`
 *   const message = formatAuthMessage({ request: params.authPayload, iss })
 *   const { type, chains, ...fields } = params.authPayload
 *   const cacao = { h: { t: 'caip122' }, p: { ...fields, iss }, s: { t: 'eip191', s: await signMessage(message) } }
 *   await approveAuthenticate(client, { id, auths: [cacao] })
 * })
 */
export async function approveAuthenticate(
  client: SignClient,
  parameters: ApproveAuthenticateParameters,
): Promise<{ session: Session | undefined }> {
  const internal = getInternal(client)
  await internal.ready
  const { state } = internal
  const { id, auths } = parameters
  const pending = state.authRequests[id]
  if (!pending) throw new SignError(SIGN_ERRORS.NO_AUTH_REQUEST)
  if (!Array.isArray(auths) || auths.length === 0) throw new SignError(SIGN_ERRORS.NO_AUTHS)
  // Throws for a CACAO whose iss is not an eip155 did:pkh: the dapp could not read it either.
  for (const cacao of auths) parseIss(cacao.p.iss)
  const { requester } = pending.params
  const self = generateKeyPair()
  const namespaces = buildAuthNamespaces(auths)
  let session: Session | undefined
  if (Object.values(namespaces).some((namespace) => namespace.methods.length > 0)) {
    const sessionKey = deriveSymKey(self.privateKey, requester.publicKey)
    const topic = deriveTopic(sessionKey)
    session = {
      topic,
      pairingTopic: pending.topic,
      relay: { protocol: 'irn' },
      expiry: expiryIn(SEVEN_DAYS),
      acknowledged: true,
      // The wallet may update it, as after a proposal (the dapp takes the wallet's key as the controller).
      controller: self.publicKey,
      namespaces,
      requiredNamespaces: {},
      optionalNamespaces: {},
      self: { publicKey: self.publicKey, metadata: internal.metadata },
      peer: requester,
    }
    state.keys[topic] = sessionKey
    state.keys[self.publicKey] = self.privateKey
    await subscribe(internal, topic)
  }
  try {
    await publishToRequester(internal, {
      requesterPublicKey: requester.publicKey,
      self,
      payload: {
        id,
        jsonrpc: '2.0',
        result: { cacaos: auths, responder: { publicKey: self.publicKey, metadata: internal.metadata } },
      },
      options: AUTH_ANSWER.result,
    })
  } catch (error) {
    if (session) {
      delete state.keys[session.topic]
      delete state.keys[self.publicKey]
    }
    throw error
  }
  if (session) state.sessions[session.topic] = session
  delete state.authRequests[id]
  const pairing = state.pairings[pending.topic]
  if (pairing)
    Object.assign(pairing, { active: true, expiry: expiryIn(300), peerMetadata: requester.metadata })
  save(internal)
  return { session }
}
