import type { IncomingMessage, ServerResponse } from 'node:http'
import { generateSiweNonce } from 'viem/siwe'
import type { Database } from '../db/createDatabase.js'
import type { ChainReader } from '../payments/chainReader.js'
import { ApiError, clientAddress, isHttps, originOf, readJson, sendJson, stringField } from './http.js'
import { listPayments, recordPayment } from './payments.js'
import { createRateLimit } from './rateLimit.js'
import { clearedCookie, readSession, sessionCookie } from './sessions.js'
import { issueNonce, signIn } from './signIn.js'

/** Parameters of {@link createApi}. */
export type CreateApiParameters = {
  db: Database
  chainId: number
  /** The node payments are read from. */
  chain: ChainReader
  /** Read `X-Forwarded-Proto`/`-For` from a trusted proxy in front. @default false */
  trustProxy?: boolean | undefined
  /** Nonce requests per address: burst and refill per second. @default { burst: 20, perSecond: 1 } */
  nonceRateLimit?: { burst: number; perSecond: number } | undefined
}

/**
 * The app's API under `/api`: Sign-In with Ethereum (nonce, verify, me, logout) and the account's payments. Every
 * bad input is a clear 4xx and writes nothing; state-changing requests from another origin are refused (CSRF).
 * Returns a handler that resolves `false` for paths it does not own.
 */
export function createApi(parameters: CreateApiParameters) {
  const { db, chainId, trustProxy = false } = parameters
  const nonceLimit = createRateLimit(parameters.nonceRateLimit ?? { burst: 20, perSecond: 1 })

  return async function handleApi(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    if (!path.startsWith('/api/')) return false
    const route = `${request.method} ${path}`
    const origin = originOf(request, trustProxy)
    const secure = isHttps(request, trustProxy)
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') assertSameOrigin(request, origin)
      switch (route) {
        case 'GET /api/nonce': {
          const wait = nonceLimit.take(clientAddress(request, trustProxy))
          if (wait > 0)
            throw new ApiError(429, 'Too many sign-in attempts: wait and try again', {
              'retry-after': String(wait),
            })
          return done(response, 200, await issueNonce(db, generateSiweNonce()))
        }
        case 'POST /api/verify': {
          const body = await readJson(request)
          const message = stringField(body, 'message', 4096)
          const signature = stringField(body, 'signature', 2048)
          const previous = await readSession(db, request)
          const host = request.headers.host ?? ''
          const result = await signIn(
            db,
            { message, signature, replaces: previous?.tokenHash },
            { domain: host, origin, chainId },
          )
          return done(
            response,
            200,
            { address: result.address, chainId: result.chainId },
            {
              'set-cookie': sessionCookie(result.token, secure),
            },
          )
        }
        case 'GET /api/me': {
          const session = await requireSession(request, secure)
          const rows = await db.query<{ first_seen: Date; last_sign_in: Date }>(
            'SELECT first_seen, last_sign_in FROM accounts WHERE address = $1',
            [session.address],
          )
          const account = rows[0]
          return done(response, 200, {
            address: session.address,
            chainId: session.chainId,
            firstSeen: account ? new Date(account.first_seen).toISOString() : null,
            lastSignIn: account ? new Date(account.last_sign_in).toISOString() : null,
          })
        }
        case 'POST /api/logout': {
          const session = await readSession(db, request)
          if (session) await db.query('DELETE FROM sessions WHERE token_hash = $1', [session.tokenHash])
          return done(response, 200, { signedOut: true }, { 'set-cookie': clearedCookie(secure) })
        }
        case 'GET /api/payments': {
          const session = await requireSession(request, secure)
          return done(response, 200, { payments: await listPayments(db, session.address) })
        }
        case 'POST /api/payments': {
          const session = await requireSession(request, secure)
          const body = await readJson(request)
          const { payment, created } = await recordPayment(db, parameters.chain, session.address, body)
          return done(response, created ? 201 : 200, payment)
        }
        default:
          throw new ApiError(404, `No API route ${request.method} ${path}`)
      }
    } catch (error) {
      if (error instanceof ApiError)
        return done(response, error.status, { error: error.message }, error.headers)
      return done(response, 500, { error: 'Internal error' })
    }
  }

  async function requireSession(request: IncomingMessage, secure: boolean) {
    const session = await readSession(db, request)
    if (!session) throw new ApiError(401, 'Not signed in', { 'set-cookie': clearedCookie(secure) })
    return session
  }
}

/**
 * CSRF guard: a state-changing request must come from a page of this origin. Browsers send `Origin` on every
 * cross-site POST, and `Sec-Fetch-Site` on every request; either one identifies a foreign page.
 */
function assertSameOrigin(request: IncomingMessage, origin: string) {
  const from = request.headers.origin
  const site = request.headers['sec-fetch-site']
  if (from !== undefined ? from !== origin : site !== undefined && site !== 'same-origin') {
    throw new ApiError(403, 'Cross-site request refused')
  }
  if (from === undefined && site === undefined)
    throw new ApiError(403, 'Cross-site request refused: no Origin header')
}

function done(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): true {
  sendJson(response, status, body, headers)
  return true
}
