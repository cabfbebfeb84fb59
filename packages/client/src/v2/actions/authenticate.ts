import { payloadId } from '@pairlink/protocol'
import {
  type AuthPayload,
  type Cacao,
  createPairingKey,
  createRecap,
  deriveTopic,
  formatPairingUri,
  generateKeyPair,
  mergeRecaps,
} from '@pairlink/protocol/v2'
import { onAuthAnswer } from '../authAnswer.js'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SignError } from '../errors.js'
import { dropTopic, expiryIn, getInternal, type Internal, publish, save, subscribe } from '../internal.js'
import type { AuthenticateRequest, Proposal, Session } from '../types.js'

// The SDK's proposal and pairing lifetime, and the least an auth request lives (`wc_sessionAuthenticate` ttl), seconds.
const FIVE_MINUTES = 300
const ONE_HOUR = 3600

/** Parameters of {@link authenticate}. */
export type AuthenticateParameters = {
  /** CAIP-2 chains the dapp accepts a sign-in on (`eip155:1`); the wallet signs one CACAO per chain it supports. */
  chains: string[]
  /** The site asking (EIP-4361 `domain`, `pairlink.example`). */
  domain: string
  /** The URI the sign-in is for (EIP-4361 `URI`, the CACAO's `aud`). */
  uri: string
  /** A fresh value the dapp checks when it verifies the sign-in (the server's nonce). */
  nonce: string
  statement?: string | undefined
  /**
   * JSON-RPC methods the session may call, granted by the sign-in itself (a ReCap appended as the last resource).
   * @default ['personal_sign']
   */
  methods?: string[] | undefined
  resources?: string[] | undefined
  /** ISO 8601 time the sign-in expires (EIP-4361 `Expiration Time`). */
  exp?: string | undefined
  /** ISO 8601 time the sign-in becomes valid (EIP-4361 `Not Before`). */
  nbf?: string | undefined
  /** Seconds the auth request stays valid for the relay and the wallet; at least an hour. @default 3600 */
  expiry?: number | undefined
  /** Seconds the pairing URI and the fallback proposal stay valid (`response()` then rejects). @default 300 */
  pairingExpiry?: number | undefined
  /**
   * Checks a CACAO's signature; `message` is the text its account signed. Smart accounts (EIP-1271, EIP-6492) need a
   * chain: pass a check that asks one. @default `checkCacaoSignature` (an EOA's EIP-191 signature, no chain needed)
   */
  verifyCacao?: ((cacao: Cacao, message: string) => boolean | Promise<boolean>) | undefined
}

/** What {@link authenticate} resolves with. */
export type AuthenticateReturnType = {
  /** The pairing URI to show (QR code or deep link). Never log it: it holds the key. */
  uri: string
  /**
   * Resolves with the session and the wallet's verified CACAOs (`auths`), or with the session alone when the wallet
   * has no one-click auth and approved the fallback proposal; rejects with the wallet's refusal, `ERR_PROPOSAL_EXPIRED`
   * once the URI expired unanswered, or 7000 (SESSION_SETTLEMENT_FAILED) for a CACAO that does not verify.
   */
  response: () => Promise<{ session: Session; auths?: Cacao[] | undefined }>
}

/**
 * Dapp: connects and signs in with one approval (one-click auth, `wc_sessionAuthenticate`). Makes a pairing URI (also
 * emitted as `display_uri`) and publishes on it the sign-in request and, for wallets without one-click auth, a session
 * proposal with the same key; `response()` waits for the wallet. Each CACAO the wallet signs is checked (signature,
 * and that it answers this request: domain, URI, nonce, chain, times) before the session is kept; `session_connect`
 * carries them as `auths`.
 *
 * @example
 * const { uri, response } = await authenticate(client, {
 *   chains: ['eip155:1'], domain: 'pairlink.example', uri: 'https://pairlink.example', nonce,
 *   statement: 'Sign in to Pairlink.', methods: ['personal_sign', 'eth_sendTransaction'],
 * })
 * showQrCode(uri)
 * const { session, auths } = await response()
 */
export async function authenticate(
  client: SignClient,
  parameters: AuthenticateParameters,
): Promise<AuthenticateReturnType> {
  const internal = getInternal(client)
  await internal.ready
  const { state } = internal
  const { chains, methods = ['personal_sign'] } = parameters
  if (
    !Array.isArray(chains) ||
    chains.length === 0 ||
    !chains.every((c) => /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(c))
  )
    throw new SignError(SDK_ERRORS.UNSUPPORTED_CHAINS)

  const lifetime = parameters.pairingExpiry ?? FIVE_MINUTES
  const requestLifetime = Math.max(parameters.expiry ?? 0, ONE_HOUR)
  const { topic: pairingTopic, symKey } = createPairingKey()
  const pairingMethods = ['wc_sessionAuthenticate']
  const uri = formatPairingUri({
    topic: pairingTopic,
    symKey,
    expiryTimestamp: expiryIn(lifetime),
    methods: pairingMethods,
  })
  const { privateKey, publicKey } = generateKeyPair()
  const responseTopic = deriveTopic(publicKey)

  const resources = [...(parameters.resources ?? [])]
  if (methods.length > 0) {
    // A ReCap is the last resource (EIP-5573): one the dapp brought is merged with the methods'.
    const namespace = chains[0]?.split(':')[0] ?? 'eip155'
    let recap = createRecap(namespace, 'request', methods)
    const last = resources.at(-1)
    if (last?.includes('urn:recap:')) recap = mergeRecaps(recap, resources.pop() as string)
    resources.push(recap)
  }
  const authPayload: AuthPayload = {
    type: 'caip122',
    chains,
    statement: parameters.statement ?? '',
    aud: parameters.uri,
    domain: parameters.domain,
    version: '1',
    nonce: parameters.nonce,
    iat: new Date().toISOString(),
    ...(parameters.exp ? { exp: parameters.exp } : {}),
    ...(parameters.nbf ? { nbf: parameters.nbf } : {}),
    resources,
  }
  const request: AuthenticateRequest = {
    authPayload,
    requester: { publicKey, metadata: internal.metadata },
    expiryTimestamp: expiryIn(requestLifetime),
  }
  const id = payloadId()
  const proposal: Proposal = {
    id: payloadId(),
    pairingTopic,
    expiryTimestamp: expiryIn(lifetime),
    relays: [{ protocol: 'irn' }],
    proposer: { publicKey, metadata: internal.metadata },
    requiredNamespaces: {},
    optionalNamespaces: {
      // The fallback asks for personal_sign always: the dapp can still sign the user in with a message.
      eip155: {
        chains,
        methods: [...new Set(['personal_sign', ...methods])],
        events: ['chainChanged', 'accountsChanged'],
      },
    },
  }

  state.keys[pairingTopic] = symKey
  state.pairings[pairingTopic] = {
    topic: pairingTopic,
    expiry: expiryIn(lifetime),
    active: false,
    methods: pairingMethods,
  }
  state.keys[publicKey] = privateKey
  state.proposed[proposal.id] = proposal
  state.authenticating[id] = { publicKey, responseTopic, pairingTopic, proposalId: proposal.id, request }
  save(internal)

  const response = new Promise<{ session: Session; auths?: Cacao[] | undefined }>((resolve, reject) => {
    internal.approvals.set(proposal.id, {
      // The fallback: a wallet without one-click auth approved the proposal (`wc_sessionSettle` emitted it).
      resolve(session) {
        forget(internal, id)
        resolve({ session })
      },
      reject(error) {
        // A closed client keeps its state for the next one on the same storage; an abandoned one keeps it to refuse a
        // wallet that answers later.
        if (!internal.closed && !state.authenticating[id]?.abandoned) forget(internal, id, true)
        reject(error)
      },
    })
    internal.authResponses.set(id, (answer) =>
      onAuthAnswer(internal, id, answer, {
        verify: parameters.verifyCacao,
        fallBack: () => forget(internal, id),
        settle(session, auths) {
          // The fallback proposal will not be answered: it goes, the key stays (the session's).
          internal.approvals.delete(proposal.id)
          delete state.proposed[proposal.id]
          forget(internal, id)
          internal.emitter.emit('session_connect', { session, auths })
          resolve({ session, auths })
        },
        fail(error) {
          forget(internal, id, true)
          reject(error)
        },
      }),
    )
  })
  // An app that never calls response() must not see an unhandled rejection when the URI expires.
  response.catch(() => {})

  try {
    // The answers come on the pairing (the proposal's) and the response topic (the auth request's, type 1).
    await subscribe(internal, pairingTopic)
    await subscribe(internal, responseTopic)
    await publish(
      internal,
      pairingTopic,
      { id, jsonrpc: '2.0', method: 'wc_sessionAuthenticate', params: request },
      'wc_sessionAuthenticate',
      { ttl: requestLifetime },
    )
    await publish(
      internal,
      pairingTopic,
      { id: proposal.id, jsonrpc: '2.0', method: 'wc_sessionPropose', params: proposal },
      'wc_sessionPropose',
    )
  } catch (error) {
    forget(internal, id, true)
    delete state.pairings[pairingTopic]
    dropTopic(internal, pairingTopic)
    save(internal)
    throw error
  }
  internal.emitter.emit('display_uri', { uri })
  return { uri, response: () => response }
}

/**
 * Ends a one-click auth's bookkeeping: its response topic, the waiters; `all` also its fallback proposal and key (it
 * failed: nothing of it is kept).
 */
function forget(internal: Internal, id: number, all = false): void {
  const { state } = internal
  const auth = state.authenticating[id]
  internal.authResponses.delete(id)
  if (!auth) return
  delete state.authenticating[id]
  dropTopic(internal, auth.responseTopic)
  if (all) {
    internal.approvals.delete(auth.proposalId)
    delete state.proposed[auth.proposalId]
    if (!Object.values(state.sessions).some((session) => session.self.publicKey === auth.publicKey))
      delete state.keys[auth.publicKey]
  }
  save(internal)
}
