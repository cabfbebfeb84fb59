import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { Database } from '../db/createDatabase.js'

/** Name of the session cookie. */
const SESSION_COOKIE = 'pairlink_session'
/** How long a sign-in lasts. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600

/** The signed-in account of a request, or `undefined` (no cookie, unknown or tampered token, expired session). */
export async function readSession(
  db: Pick<Database, 'query'>,
  c: Context,
  now: Date = new Date(),
): Promise<{ address: string; chainId: number; tokenHash: string } | undefined> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token || !/^[\w-]{43}$/.test(token)) return undefined
  const tokenHash = hashToken(token)
  const rows = await db.query<{ address: string; chain_id: number }>(
    'SELECT address, chain_id FROM sessions WHERE token_hash = $1 AND expires_at > $2',
    [tokenHash, now],
  )
  const row = rows[0]
  return row ? { address: row.address, chainId: row.chain_id, tokenHash } : undefined
}

/** A fresh random session token (256 bits, base64url) and the hash the database keeps instead of it. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashToken(token) }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * `Set-Cookie` for a session token; `Secure` whenever the page is served over https. Written here rather than by
 * `hono/cookie`'s `setCookie`: its attributes come in another order (`Max-Age` first), and the header's exact text is
 * part of what the API's tests (and clients that compare it) see.
 */
export function sessionCookie(token: string, secure: boolean, maxAge = SESSION_TTL_SECONDS): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`
}

/** `Set-Cookie` that removes the session cookie. */
export function clearedCookie(secure: boolean): string {
  return sessionCookie('', secure, 0)
}

/**
 * Deletes the nonces and sessions that expired at `now` or before, and says how many of each went. Neither can be
 * used once expired (sign-in and {@link readSession} check `expires_at`); this only keeps the tables from growing.
 * Safe to run from every server on one database at once: each row is deleted once.
 *
 * @example
 * setInterval(() => void purgeExpired(db).catch(() => {}), 10 * 60_000).unref()
 */
export async function purgeExpired(
  db: Pick<Database, 'query'>,
  now: Date = new Date(),
): Promise<{ nonces: number; sessions: number }> {
  const count = async (table: 'nonces' | 'sessions') =>
    (await db.query(`DELETE FROM ${table} WHERE expires_at <= $1 RETURNING 1 AS gone`, [now])).length
  return { nonces: await count('nonces'), sessions: await count('sessions') }
}
