import {
  type AuthPayload,
  type Cacao,
  checkCacaoSignature,
  formatCacaoMessage,
  parseIss,
} from '@pairlink/protocol/v2'

/** Checks a CACAO's signature; `message` is the text its account signed (see `authenticate`'s `verifyCacao`). */
export type VerifyCacao = (cacao: Cacao, message: string) => boolean | Promise<boolean>

/**
 * Why a wallet's CACAOs cannot be kept as the answer to `requests`, or `undefined` when every one verifies (`verify`,
 * by default `checkCacaoSignature`) and answers one of them: the words a refusal (7000) carries. One-click auth's
 * answer (`wc_sessionAuthenticate`) and a proposal's sign-in (`requests.authentication`) are checked alike.
 */
export async function checkCacaos(
  cacaos: unknown,
  requests: readonly AuthPayload[],
  verify: VerifyCacao = checkCacaoSignature,
): Promise<string | undefined> {
  if (!Array.isArray(cacaos) || cacaos.length === 0) return 'Malformed answer'
  for (const cacao of cacaos as Cacao[]) {
    let message: string
    try {
      message = formatCacaoMessage(cacao.p)
    } catch {
      return 'Signature verification failed'
    }
    let verified = false
    try {
      verified = (await verify(cacao, message)) === true
    } catch {}
    if (!verified) return 'Signature verification failed'
    const mismatches = requests.map((request) => findMismatch(cacao, request))
    if (!mismatches.includes(undefined))
      return `Cacao does not match the request: ${mismatches[0] ?? 'none asked'}`
  }
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
  let chain: string
  try {
    chain = parseIss(p.iss).chain
  } catch {
    return 'iss'
  }
  if (!request.chains.includes(chain)) return 'chain'
  const now = Date.now()
  if (p.exp !== undefined && !(new Date(p.exp).getTime() >= now)) return 'exp'
  if (p.nbf !== undefined && !(new Date(p.nbf).getTime() <= now)) return 'nbf'
}
