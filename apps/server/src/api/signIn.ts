import { getAddress, type Hex, isHex, verifyMessage } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { Database } from '../db/createDatabase.js'
import { ApiError } from './http.js'
import { newToken, SESSION_TTL_SECONDS } from './sessions.js'

/** How long a nonce from `GET /api/nonce` may be used. */
const NONCE_TTL_SECONDS = 600
/** Clock skew tolerated on `issuedAt`. */
const MAX_CLOCK_SKEW_MS = 60_000

/** What the server expects of a sign-in message. */
export type SignInExpectations = {
  /** This server's host (`host[:port]`): the message's `domain`. */
  domain: string
  /** This server's origin: the message's `uri` must be on it. */
  origin: string
  chainId: number
  now?: Date | undefined
}

/**
 * Verifies an EIP-4361 message and its signature, then — only when everything holds — consumes the nonce, records
 * the account and opens a session, in one transaction (a refused sign-in writes nothing). `replaces` is the
 * caller's previous session, closed so the token rotates on every sign-in.
 */
export async function signIn(
  db: Database,
  input: { message: string; signature: string; replaces?: string | undefined },
  expected: SignInExpectations,
): Promise<{ address: string; chainId: number; token: string }> {
  const now = expected.now ?? new Date()
  const fields = parseFields(input.message)
  if (fields.domain !== expected.domain)
    throw new ApiError(401, `Message is for ${fields.domain}, not this site`)
  if (originOf(fields.uri) !== expected.origin) throw new ApiError(401, 'Message URI is not on this site')
  if (fields.chainId !== expected.chainId) {
    throw new ApiError(
      401,
      `Message is for chain ${fields.chainId}; this site runs chain ${expected.chainId}`,
    )
  }
  if (fields.issuedAt.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS)
    throw new ApiError(401, 'Message is issued in the future')
  if (fields.expirationTime && fields.expirationTime.getTime() <= now.getTime())
    throw new ApiError(401, 'Message has expired')
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime())
    throw new ApiError(401, 'Message is not valid yet')
  if (!isHex(input.signature) || input.signature.length < 132)
    throw new ApiError(400, 'Signature must be 0x-hex')

  const valid = await verifyMessage({
    address: fields.address,
    message: input.message,
    signature: input.signature as Hex,
  }).catch(() => false)
  if (!valid) throw new ApiError(401, 'Signature is not from the message’s address')

  const { token, tokenHash } = newToken()
  await db.transaction(async (tx) => {
    const used = await tx.query(
      'UPDATE nonces SET used_at = now() WHERE nonce = $1 AND used_at IS NULL AND expires_at > now() RETURNING nonce',
      [fields.nonce],
    )
    if (used.length === 0) throw new ApiError(401, 'Nonce is unknown, used or expired: ask for a new one')
    await tx.query(
      `INSERT INTO accounts (address) VALUES ($1)
       ON CONFLICT (address) DO UPDATE SET last_sign_in = now()`,
      [fields.address],
    )
    if (input.replaces) await tx.query('DELETE FROM sessions WHERE token_hash = $1', [input.replaces])
    await tx.query(
      `INSERT INTO sessions (token_hash, address, chain_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [tokenHash, fields.address, fields.chainId, SESSION_TTL_SECONDS],
    )
  })
  return { address: fields.address, chainId: fields.chainId, token }
}

/** Issues a single-use nonce valid for ten minutes. */
export async function issueNonce(db: Database, nonce: string): Promise<{ nonce: string; expiresAt: string }> {
  const rows = await db.query<{ expires_at: Date }>(
    'INSERT INTO nonces (nonce, expires_at) VALUES ($1, now() + make_interval(secs => $2)) RETURNING expires_at',
    [nonce, NONCE_TTL_SECONDS],
  )
  return { nonce, expiresAt: new Date(rows[0]!.expires_at).toISOString() }
}

type Fields = {
  address: `0x${string}`
  domain: string
  uri: string
  chainId: number
  nonce: string
  issuedAt: Date
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
}

function parseFields(message: string): Fields {
  let parsed: ReturnType<typeof parseSiweMessage>
  try {
    parsed = parseSiweMessage(message)
  } catch {
    throw new ApiError(400, 'Message is not an EIP-4361 sign-in message')
  }
  const { address, domain, uri, chainId, nonce, issuedAt, version } = parsed
  if (!address || !domain || !uri || !chainId || !nonce || !issuedAt || version !== '1') {
    throw new ApiError(400, 'Message is not an EIP-4361 sign-in message')
  }
  let checksummed: `0x${string}`
  try {
    checksummed = getAddress(address)
  } catch {
    throw new ApiError(400, 'Message address is not an Ethereum address')
  }
  const dates = [issuedAt, parsed.expirationTime, parsed.notBefore]
  if (dates.some((d) => d !== undefined && Number.isNaN(d.getTime())))
    throw new ApiError(400, 'Message has an invalid date')
  return {
    address: checksummed,
    domain,
    uri,
    chainId,
    nonce,
    issuedAt,
    expirationTime: parsed.expirationTime,
    notBefore: parsed.notBefore,
  }
}

function originOf(uri: string): string | undefined {
  try {
    return new URL(uri).origin
  } catch {
    return undefined
  }
}
