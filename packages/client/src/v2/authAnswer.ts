import {
  type AuthPayload,
  buildAuthNamespaces,
  type Cacao,
  checkCacaoSignature,
  deriveSymKey,
  deriveTopic,
  formatCacaoMessage,
  parseIss,
} from '@pairlink/protocol/v2'
import { SDK_ERRORS, SignError } from './errors.js'
import { expiryIn, type Internal, save, subscribe } from './internal.js'
import type { ErrorResponse, Metadata, Session } from './types.js'

// The SDK's session lifetime, seconds.
const SEVEN_DAYS = 604_800
const KEY_RE = /^[0-9a-f]{64}$/

/** What `authenticate` does with the outcome. */
type Outcome = {
  verify: ((cacao: Cacao, message: string) => boolean | Promise<boolean>) | undefined
  /** The wallet has no one-click auth (10001): the fallback proposal stays the way in. */
  fallBack: () => void
  settle: (session: Session, auths: Cacao[]) => void
  fail: (error: SignError) => void
}

/**
 * Dapp: the wallet's answer to a one-click auth request. An error 10001 (WC_METHOD_UNSUPPORTED) leaves the fallback
 * proposal to the wallet; any other refuses. CACAOs are kept only when every one verifies and answers this very
 * request; the session is then built here from them, as the wallet builds its own (no `wc_sessionSettle`).
 */
export async function onAuthAnswer(
  internal: Internal,
  id: number,
  answer: { result: unknown } | { error: ErrorResponse },
  outcome: Outcome,
): Promise<void> {
  const auth = internal.state.authenticating[id]
  if (!auth) return
  if ('error' in answer) {
    if (answer.error.code === SDK_ERRORS.WC_METHOD_UNSUPPORTED.code) return outcome.fallBack()
    return outcome.fail(new SignError(answer.error))
  }
  const failed = (context: string) =>
    outcome.fail(
      new SignError({
        ...SDK_ERRORS.SESSION_SETTLEMENT_FAILED,
        message: `${SDK_ERRORS.SESSION_SETTLEMENT_FAILED.message} ${context}`,
      }),
    )
  const { cacaos, responder } = (answer.result ?? {}) as {
    cacaos?: Cacao[]
    responder?: { publicKey?: string; metadata?: Metadata }
  }
  if (
    !Array.isArray(cacaos) ||
    cacaos.length === 0 ||
    !KEY_RE.test(responder?.publicKey ?? '') ||
    typeof responder?.metadata?.name !== 'string'
  )
    return failed('Malformed answer')
  const verify = outcome.verify ?? checkCacaoSignature
  for (const cacao of cacaos) {
    let message: string
    try {
      message = formatCacaoMessage(cacao.p)
    } catch {
      return failed('Signature verification failed')
    }
    let verified = false
    try {
      verified = (await verify(cacao, message)) === true
    } catch {}
    if (!verified) return failed('Signature verification failed')
    const mismatch = findMismatch(cacao, auth.request.authPayload)
    if (mismatch) return failed(`Cacao does not match the request: ${mismatch}`)
  }
  const namespaces = buildAuthNamespaces(cacaos)
  if (!Object.values(namespaces).some((namespace) => namespace.methods.length > 0))
    return failed('No methods granted')

  const privateKey = internal.state.keys[auth.publicKey]
  if (!privateKey) return failed('Key lost')
  const peer = { publicKey: responder.publicKey as string, metadata: responder.metadata as Metadata }
  const sessionKey = deriveSymKey(privateKey, peer.publicKey)
  const topic = deriveTopic(sessionKey)
  const session: Session = {
    topic,
    pairingTopic: auth.pairingTopic,
    relay: { protocol: 'irn' },
    expiry: expiryIn(SEVEN_DAYS),
    acknowledged: true,
    controller: peer.publicKey,
    namespaces,
    requiredNamespaces: {},
    optionalNamespaces: {},
    self: { publicKey: auth.publicKey, metadata: internal.metadata },
    peer,
  }
  internal.state.keys[topic] = sessionKey
  internal.state.sessions[topic] = session
  const pairing = internal.state.pairings[auth.pairingTopic]
  if (pairing) Object.assign(pairing, { active: true, expiry: expiryIn(300), peerMetadata: peer.metadata })
  save(internal)
  await subscribe(internal, topic).catch(() => {})
  outcome.settle(session, cacaos)
}

/**
 * Why a CACAO does not answer `request` (the SDK's `isCacaoBoundToRequest`, and the fields a wallet copies as they
 * are): a valid signature alone only proves its account signed it, perhaps for another site.
 */
function findMismatch(cacao: Cacao, request: AuthPayload): string | undefined {
  const { p } = cacao
  if (cacao.h?.t !== 'caip122') return 'type'
  if (p.domain !== request.domain) return 'domain'
  if (p.nonce !== request.nonce) return 'nonce'
  if (p.aud !== request.aud) return 'aud'
  if (p.version !== request.version) return 'version'
  // A wallet appends the ReCap's words to the statement (the SDK's `populateAuthPayload`).
  if (request.statement && !p.statement?.startsWith(request.statement)) return 'statement'
  if (!request.chains.includes(parseIss(p.iss).chain)) return 'chain'
  const now = Date.now()
  if (p.exp !== undefined && !(new Date(p.exp).getTime() >= now)) return 'exp'
  if (p.nbf !== undefined && !(new Date(p.nbf).getTime() <= now)) return 'nbf'
}
