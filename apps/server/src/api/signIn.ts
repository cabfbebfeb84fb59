import { type Cacao, formatCacaoMessage, InvalidCacaoError } from '@pairlink/protocol/v2'
import {
  compactSignatureToSignature,
  type Hex,
  isHex,
  parseCompactSignature,
  type Signature,
  verifyMessage,
} from 'viem'
import type { Database } from '../db/createDatabase.js'
import { ChainUnreachableError, type ChainVerifier } from '../payments/chainReader.js'
import { SiweMessageError } from '../siwe/errors.js'
import { type ParsedSiweMessage, parseSiweMessage } from '../siwe/parseSiweMessage.js'
import { ApiError } from './http.js'
import { newToken, SESSION_TTL_SECONDS } from './sessions.js'

/** How long a nonce from `GET /api/nonce` may be used. */
const NONCE_TTL_SECONDS = 600
/** Clock skew tolerated on `issuedAt`. */
const MAX_CLOCK_SKEW_MS = 60_000

/** What the server expects of a sign-in message: the site's identity from configuration, never from the request. */
export type SignInExpectations = {
  /** This site's authority (`host[:port]`, `[::1]:8080` for IPv6) from configuration: the message's `domain`. */
  domain: string
  /**
   * This site's origin (`scheme://host[:port]`) from configuration: the message's URI must be on it, and a message
   * that names a scheme (`https://example.com wants you…`) must name this one.
   */
  origin: string
  chainId: number
  /**
   * The configured chain node, for accounts that are contracts (EIP-1271) or not deployed yet (EIP-6492): asked only
   * when the signature is not the address's own key's. Without it only such keys sign in.
   */
  chain?: ChainVerifier | undefined
  /** The time the message's dates are checked against. @default new Date() */
  now?: Date | undefined
}

/** Codes of {@link SignInError}: one per reason a sign-in is refused. */
export type SignInErrorCode =
  | 'ERR_SIWE_MESSAGE_INVALID'
  | 'ERR_SIGN_IN_WRONG_SITE'
  | 'ERR_SIGN_IN_WRONG_CHAIN'
  | 'ERR_SIGN_IN_NOT_NOW'
  | 'ERR_SIGN_IN_SIGNATURE'
  | 'ERR_SIGN_IN_NONCE'
  | 'ERR_SIGN_IN_CHAIN_UNAVAILABLE'

/**
 * A refused sign-in: an {@link ApiError} (answered with its 400 or 401 status) that also carries a `code`, so callers
 * tell the reasons apart without matching on text. Nothing is written when one is thrown.
 */
export class SignInError extends ApiError {
  override name = 'SignInError'

  constructor(
    status: 400 | 401 | 503,
    override readonly code: SignInErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(status, message)
    if (options?.cause !== undefined) this.cause = options.cause
  }
}

/**
 * Verifies an EIP-4361 message and its signature, then — only when everything holds — consumes the nonce, records
 * the account and opens a session, in one transaction (a refused sign-in writes nothing). The message must match
 * the EIP's ABNF exactly ({@link parseSiweMessage}) and be for `expected`'s domain, origin, scheme and chain; the
 * signature may be 65 bytes or EIP-2098 compact (64). `replaces` is the caller's previous session, closed so the
 * token rotates on every sign-in. Throws {@link SignInError}.
 *
 * @example
 * await signIn(db, { message, signature }, { domain: 'pairlink.example', origin: 'https://pairlink.example', chainId: 1 })
 */
export async function signIn(
  db: Database,
  input: { message: string; signature: string; replaces?: string | undefined },
  expected: SignInExpectations,
): Promise<{ address: string; chainId: number; token: string }> {
  const now = expected.now ?? new Date()
  const fields: ParsedSiweMessage = readMessage(() => parseSiweMessage(input.message))
  // Every expected value comes from the server's configuration: a message signed for another site stays refused.
  if (fields.domain !== expected.domain)
    throw new SignInError(401, 'ERR_SIGN_IN_WRONG_SITE', `Message is for ${fields.domain}, not this site`)
  const site = originOf(expected.origin)
  if (fields.scheme !== undefined && `${fields.scheme.toLowerCase()}:` !== site?.protocol)
    throw new SignInError(401, 'ERR_SIGN_IN_WRONG_SITE', 'Message is for another scheme, not this site')
  if (site === undefined || originOf(fields.uri)?.origin !== site.origin)
    throw new SignInError(401, 'ERR_SIGN_IN_WRONG_SITE', 'Message URI is not on this site')
  if (fields.chainId !== expected.chainId) {
    throw new SignInError(
      401,
      'ERR_SIGN_IN_WRONG_CHAIN',
      `Message is for chain ${fields.chainId}; this site runs chain ${expected.chainId}`,
    )
  }
  if (fields.issuedAt.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS)
    throw new SignInError(401, 'ERR_SIGN_IN_NOT_NOW', 'Message is issued in the future')
  if (fields.expirationTime && fields.expirationTime.getTime() <= now.getTime())
    throw new SignInError(401, 'ERR_SIGN_IN_NOT_NOW', 'Message has expired')
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime())
    throw new SignInError(401, 'ERR_SIGN_IN_NOT_NOW', 'Message is not valid yet')

  if (!(await verifySignature(fields.address, input.message, input.signature, expected.chain)))
    throw new SignInError(401, 'ERR_SIGN_IN_SIGNATURE', 'Signature is not from the message’s address')

  const { token, tokenHash } = newToken()
  const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000)
  await db.transaction(async (tx) => {
    const used = await tx.query(
      'UPDATE nonces SET used_at = $2 WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2 RETURNING nonce',
      [fields.nonce, now],
    )
    if (used.length === 0)
      throw new SignInError(401, 'ERR_SIGN_IN_NONCE', 'Nonce is unknown, used or expired: ask for a new one')
    await tx.query(
      `INSERT INTO accounts (address, first_seen, last_sign_in) VALUES ($1, $2, $2)
       ON CONFLICT (address) DO UPDATE SET last_sign_in = $2`,
      [fields.address, now],
    )
    if (input.replaces) await tx.query('DELETE FROM sessions WHERE token_hash = $1', [input.replaces])
    await tx.query(
      `INSERT INTO sessions (token_hash, address, chain_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [tokenHash, fields.address, fields.chainId, now, expiresAt],
    )
  })
  return { address: fields.address, chainId: fields.chainId, token }
}

// Signature kinds a CACAO may name: a key's (EIP-191) or a smart account's (EIP-1271, EIP-6492).
const CACAO_SIGNATURES = new Set(['eip191', 'eip1271', 'eip6492'])

/**
 * {@link signIn} with one-click auth's answer: a CACAO (`wc_sessionAuthenticate`) whose payload is the sign-in. Its
 * text is written back as the wallet signed it ({@link formatCacaoMessage}), then checked exactly as a sign-in
 * message is: this site, this chain, the times, the nonce, the signature (smart accounts included).
 */
export function signInWithCacao(
  db: Database,
  input: { cacao: unknown; replaces?: string | undefined },
  expected: SignInExpectations,
): Promise<{ address: string; chainId: number; token: string }> {
  const cacao = input.cacao as Partial<Cacao> | null
  if (
    !cacao ||
    typeof cacao !== 'object' ||
    cacao.h?.t !== 'caip122' ||
    !cacao.p ||
    typeof cacao.p !== 'object' ||
    !CACAO_SIGNATURES.has(String(cacao.s?.t)) ||
    typeof cacao.s?.s !== 'string'
  )
    throw new SignInError(
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      'A CACAO must be {h: {t: "caip122"}, p, s: {t, s}}',
    )
  const payload = cacao.p
  const message = readMessage(() => {
    try {
      return formatCacaoMessage(payload)
    } catch (error) {
      // The protocol's words for it, answered as any message that is not a sign-in.
      if (error instanceof InvalidCacaoError) throw new SiweMessageError(error.field, error.reason)
      throw error
    }
  })
  return signIn(db, { message, signature: cacao.s.s, replaces: input.replaces }, expected)
}

/** `read()`, its {@link SiweMessageError} answered as a 400 {@link SignInError} (`ERR_SIWE_MESSAGE_INVALID`). */
function readMessage<value>(read: () => value): value {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof SiweMessageError)) throw error
    throw new SignInError(400, 'ERR_SIWE_MESSAGE_INVALID', error.message, { cause: error })
  }
}

/** Issues a single-use nonce valid for ten minutes from `now`. */
export async function issueNonce(
  db: Database,
  nonce: string,
  now: Date = new Date(),
): Promise<{ nonce: string; expiresAt: string }> {
  const rows = await db.query<{ expires_at: Date }>(
    'INSERT INTO nonces (nonce, created_at, expires_at) VALUES ($1, $2, $3) RETURNING expires_at',
    [nonce, now, new Date(now.getTime() + NONCE_TTL_SECONDS * 1000)],
  )
  return { nonce, expiresAt: rows[0]!.expires_at.toISOString() }
}

/**
 * Whether `signature` is `address`'s over `message`: first as the signature of the address's own key (65 bytes, or
 * EIP-2098 compact, 64), which needs no node; else, with a node, as a contract account's (EIP-1271) or an undeployed
 * one's (EIP-6492), which costs one `eth_call`. The node unreachable is a 503, never a sign-in.
 */
async function verifySignature(
  address: Hex,
  message: string,
  signature: string,
  chain: ChainVerifier | undefined,
): Promise<boolean> {
  if (!isHex(signature) || signature.length % 2 !== 0 || signature.length < 4)
    throw new SignInError(400, 'ERR_SIGN_IN_SIGNATURE', 'Signature must be 0x-hex of whole bytes')
  const key = keySignature(signature)
  if (key && (await verifyMessage({ address, message, signature: key }).catch(() => false))) return true
  if (!chain) {
    if (key) return false
    throw new SignInError(
      400,
      'ERR_SIGN_IN_SIGNATURE',
      'Signature must be 0x-hex of 65 bytes, or 64 bytes (EIP-2098 compact)',
    )
  }
  try {
    return await chain.verifyMessage({ address, message, signature })
  } catch (error) {
    if (!(error instanceof ChainUnreachableError)) throw error
    throw new SignInError(
      503,
      'ERR_SIGN_IN_CHAIN_UNAVAILABLE',
      'Cannot check this account’s signature now: the chain node is unreachable. Try again shortly',
      { cause: error },
    )
  }
}

/** A key's signature: 65 bytes as they are, EIP-2098 compact (64) expanded; `undefined` for any other length. */
function keySignature(signature: Hex): Hex | Signature | undefined {
  if (signature.length === 132) return signature
  if (signature.length === 130) return compactSignatureToSignature(parseCompactSignature(signature))
  return undefined
}

function originOf(uri: string): URL | undefined {
  try {
    return new URL(uri)
  } catch {
    return undefined
  }
}
