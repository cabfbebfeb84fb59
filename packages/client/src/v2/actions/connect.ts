import { payloadId } from '@pairlink/protocol'
import { createPairingKey, encryptEnvelope, formatPairingUri, generateKeyPair } from '@pairlink/protocol/v2'
import type { VerifyCacao } from '../checkCacaos.js'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { expiryIn, getInternal, save } from '../internal.js'
import { isProposalNamespaces } from '../namespaces.js'
import type { Proposal, ProposalNamespace, Session } from '../types.js'

// The SDK's proposal and pairing lifetime (`wc_sessionPropose` ttl), seconds.
const FIVE_MINUTES = 300

/** Parameters of {@link connect}. */
export type ConnectParameters = {
  /** Namespaces the wallet may grant in part (CAIP-25); the SDK's recommended way. */
  optionalNamespaces?: Record<string, ProposalNamespace> | undefined
  /** Deprecated by the SDK, which merges them into `optionalNamespaces`; so does this function. */
  requiredNamespaces?: Record<string, ProposalNamespace> | undefined
  sessionProperties?: Record<string, string> | undefined
  /** Propose over a pairing that is still active instead of making a new URI. */
  pairingTopic?: string | undefined
  /**
   * Seconds the new pairing URI and the proposal stay valid (a dapp refreshing its QR code early, tests).
   * @default the first `authentication`'s `ttl`, else 300 (the SDK's)
   */
  expiry?: number | undefined
  /**
   * Sign-ins to ask for with the session (one-click auth inside the proposal, the SDK's `connect({ authentication })`):
   * the wallet may answer with CACAOs in its settlement, each checked as `authenticate` checks its answer (signature,
   * and that it answers one of these: domain, URI, nonce, chain, times) before the session is kept in
   * `session.authentication`; a wallet without it settles the session without them.
   */
  authentication?: ConnectAuthentication[] | undefined
  /**
   * Checks a CACAO's signature; `message` is the text its account signed. Smart accounts (EIP-1271, EIP-6492) need a
   * chain: pass a check that asks one. @default `checkCacaoSignature` (an EOA's EIP-191 signature)
   */
  verifyCacao?: VerifyCacao | undefined
}

/** A sign-in {@link connect} asks for (the SDK's `AuthenticateRequestParams`). */
export type ConnectAuthentication = {
  /** CAIP-2 chains the dapp accepts a sign-in on (`eip155:1`). */
  chains: string[]
  /** The site asking (EIP-4361 `domain`). */
  domain: string
  /** The URI the sign-in is for (EIP-4361 `URI`, the CACAO's `aud`). */
  uri: string
  /** A fresh value the dapp checks when it verifies the sign-in. */
  nonce: string
  /** Seconds the proposal stays valid, the first entry's only (the SDK's). */
  ttl?: number | undefined
  /** @default 'caip122' */
  type?: 'caip122' | undefined
  statement?: string | undefined
  /** ISO 8601 time the sign-in expires (EIP-4361 `Expiration Time`). */
  exp?: string | undefined
  /** ISO 8601 time the sign-in becomes valid (EIP-4361 `Not Before`). */
  nbf?: string | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
  /** Signature types accepted per namespace (`{ eip155: ['eip191', 'eip1271'] }`). */
  signatureTypes?: Record<string, string[]> | undefined
}

/** What {@link connect} resolves with. */
export type ConnectReturnType = {
  /** The pairing URI to show (QR code or deep link); `undefined` over an existing pairing. Never log it. */
  uri: string | undefined
  /**
   * Resolves with the session once the wallet settled it; rejects when it refused, the proposal expired, or its
   * CACAOs for `authentication` do not verify (7000, SESSION_SETTLEMENT_FAILED: nothing is kept).
   */
  approval: () => Promise<Session>
}

/**
 * Dapp: proposes a session. Makes a pairing (its `wc:` URI, also emitted as `display_uri`), publishes the proposal on
 * it with `wc_proposeSession`, and resolves once the relay has it; `approval()` waits for the wallet.
 *
 * @example
 * const { uri, approval } = await connect(client, {
 *   optionalNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] } },
 * })
 * showQrCode(uri)
 * const session = await approval()
 */
export async function connect(client: SignClient, parameters: ConnectParameters): Promise<ConnectReturnType> {
  const internal = getInternal(client)
  await internal.ready
  const { state } = internal
  const required = parameters.requiredNamespaces ?? {}
  const optional = { ...(parameters.optionalNamespaces ?? {}) }
  if (!isProposalNamespaces(required) || !isProposalNamespaces(optional))
    throw new SignError(SDK_ERRORS.UNSUPPORTED_NAMESPACE_KEY)
  for (const [key, namespace] of Object.entries(required)) optional[key] = merge(namespace, optional[key])

  // The sign-in's code loads apart: most dapps ask for none.
  const authentication =
    parameters.authentication &&
    (await import('../proposalRequests.js')).toAuthentication(parameters.authentication)
  const lifetime = parameters.expiry ?? parameters.authentication?.[0]?.ttl ?? FIVE_MINUTES
  let pairingTopic = parameters.pairingTopic
  let uri: string | undefined
  if (pairingTopic !== undefined) {
    if (!state.pairings[pairingTopic]?.active) throw new SignError(SIGN_ERRORS.PAIRING_UNKNOWN)
  } else {
    const { topic, symKey } = createPairingKey()
    const expiry = expiryIn(lifetime)
    state.keys[topic] = symKey
    state.pairings[topic] = { topic, expiry, active: false }
    uri = formatPairingUri({ topic, symKey, expiryTimestamp: expiry })
    pairingTopic = topic
  }
  const { privateKey, publicKey } = generateKeyPair()
  state.keys[publicKey] = privateKey
  const id = payloadId()
  const proposal: Proposal = {
    id,
    pairingTopic,
    expiryTimestamp: expiryIn(lifetime),
    relays: [{ protocol: 'irn' }],
    proposer: { publicKey, metadata: internal.metadata },
    requiredNamespaces: {},
    optionalNamespaces: optional,
    ...(parameters.sessionProperties ? { sessionProperties: parameters.sessionProperties } : {}),
    requests: authentication && { authentication },
  }
  state.proposed[id] = proposal
  save(internal)

  const approval = new Promise<Session>((resolve, reject) =>
    internal.approvals.set(id, { resolve, reject, verifyCacao: parameters.verifyCacao }),
  )
  // An app that never calls approval() must not see an unhandled rejection when the proposal expires.
  approval.catch(() => {})
  const sessionProposal = encryptEnvelope({
    symKey: state.keys[pairingTopic] as string,
    message: JSON.stringify({ id, jsonrpc: '2.0', method: 'wc_sessionPropose', params: proposal }),
  })
  try {
    // The relay keeps the proposal (tag 1100) and subscribes this client to the pairing (relay-v2.md §3.2).
    await internal.relay.request('wc_proposeSession', { pairingTopic, sessionProposal, ttl: FIVE_MINUTES })
  } catch (error) {
    delete state.proposed[id]
    delete state.keys[publicKey]
    internal.approvals.delete(id)
    save(internal)
    throw error
  }
  if (uri) internal.emitter.emit('display_uri', { uri })
  return { uri, approval: () => approval }
}

/** A required namespace folded into the optional one of the same key (chains, methods, events united). */
function merge(required: ProposalNamespace, optional: ProposalNamespace | undefined): ProposalNamespace {
  const union = (a: string[] = [], b: string[] = []) => [...new Set([...a, ...b])]
  const chains = union(required.chains, optional?.chains)
  return {
    ...(chains.length > 0 ? { chains } : {}),
    methods: union(required.methods, optional?.methods),
    events: union(required.events, optional?.events),
  }
}
