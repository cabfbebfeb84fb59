import { Hono } from 'hono'
import { generateSiweNonce } from 'viem/siwe'
import { type Database, DatabaseUnavailableError } from '../db/createDatabase.js'
import type { ChainReader, ChainVerifier } from '../payments/chainReader.js'
import { recordCause } from '../requestLog.js'
import type { Site } from '../site.js'
import {
  ApiError,
  type AppEnv,
  clientAddress,
  limitBody,
  NO_STORE,
  readJson,
  sameSite,
  siteOf,
  stringField,
} from './http.js'
import { listPayments, recordPayment } from './payments.js'
import { type Budget, createRateLimit, rateLimit, spend } from './rateLimit.js'
import { clearedCookie, readSession, sessionCookie } from './sessions.js'
import { issueNonce, signIn, signInWithCacao } from './signIn.js'

/** Budgets of the API's rate limits (a burst, then so many a second). */
type ApiLimits = {
  /** `GET /api/nonce` per caller address. @default { burst: 20, perSecond: 1 } */
  nonce?: Budget | undefined
  /** `POST /api/verify` per caller address. @default { burst: 20, perSecond: 0.5 } */
  verify?: Budget | undefined
  /** `POST /api/payments` per caller address. @default { burst: 20, perSecond: 0.5 } */
  payments?: Budget | undefined
  /** `POST /api/payments` per signed-in account, whatever address it comes from. @default { burst: 10, perSecond: 0.2 } */
  paymentsPerAccount?: Budget | undefined
}

/** Parameters of {@link createApi}. */
export type CreateApiParameters = {
  db: Database
  chainId: number
  /**
   * The configured node: payments are read from it (a payment is what the chain says, not what the client claims),
   * and contract accounts' sign-ins are checked against it (EIP-1271, EIP-6492).
   */
  chain: ChainReader & ChainVerifier
  /** The site's identity: the domain and origin sign-in messages and the CSRF check must match. */
  site: Site
  /** Read the client's address from `X-Forwarded-For` (rate limits) behind a trusted proxy. @default false */
  trustProxy?: boolean | undefined
  limits?: ApiLimits | undefined
}

/**
 * The app's API under `/api`: Sign-In with Ethereum (nonce, verify, me, logout) and the account's payments, as a hono
 * app. Every bad input is a clear 4xx and writes nothing; state-changing requests from another origin are refused
 * (CSRF), checked against the configured site, never the request's `Host`.
 * @example
 * app.route('/', createApi({ db, chainId, site }))
 */
export function createApi(parameters: CreateApiParameters): Hono<AppEnv> {
  const { db, chain, chainId, site, trustProxy = false, limits = {} } = parameters
  const byAddress = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, trustProxy)
  const api = new Hono<AppEnv>()

  api.onError((error, c) => {
    // A 5xx's cause goes to its one log line (requestLog.ts); the answer names the case, never the cause.
    if (!(error instanceof ApiError) || error.status >= 500) recordCause(c.env?.incoming, error)
    if (error instanceof ApiError)
      return c.json(
        { error: error.message, ...(error.code ? { code: error.code } : {}) },
        error.status as 400,
        { ...NO_STORE, ...error.headers },
      )
    if (error instanceof DatabaseUnavailableError)
      return c.json({ error: 'The database is unavailable: try again shortly', code: error.code }, 503, {
        ...NO_STORE,
        'retry-after': '5',
      })
    return c.json({ error: 'Internal error' }, 500, NO_STORE)
  })
  api.use('/api/*', sameSite(site), limitBody())

  const requireSession = async (c: Parameters<typeof clientAddress>[0]) => {
    const session = await readSession(db, c)
    if (!session)
      throw new ApiError(401, 'Not signed in', { 'set-cookie': clearedCookie(siteOf(c, site).secure) })
    return session
  }

  api.get(
    '/api/nonce',
    rateLimit(
      limits.nonce ?? { burst: 20, perSecond: 1 },
      byAddress,
      'Too many sign-in attempts: wait and try again',
    ),
    async (c) => c.json(await issueNonce(db, generateSiweNonce()), 200, NO_STORE),
  )

  api.post(
    '/api/verify',
    rateLimit(
      limits.verify ?? { burst: 20, perSecond: 0.5 },
      byAddress,
      'Too many sign-in attempts: wait and try again',
    ),
    async (c) => {
      const body = await readJson(c)
      const previous = await readSession(db, c)
      // The site's domain and origin come from configuration: a message signed for another site never matches.
      const { domain, origin, secure } = siteOf(c, site)
      const expected = { domain, origin, chainId, chain }
      // One-click auth's answer (a CACAO), or a message and its signature.
      const result =
        'cacao' in body
          ? await signInWithCacao(db, { cacao: body.cacao, replaces: previous?.tokenHash }, expected)
          : await signIn(
              db,
              {
                message: stringField(body, 'message', 4096),
                // A smart account's signature can be long: an EIP-6492 one carries its factory's deploy call.
                signature: stringField(body, 'signature', 16_384),
                replaces: previous?.tokenHash,
              },
              expected,
            )
      return c.json({ address: result.address, chainId: result.chainId }, 200, {
        ...NO_STORE,
        'set-cookie': sessionCookie(result.token, secure),
      })
    },
  )

  // Signed out is an ordinary answer here, not a 401: every page load asks, and a browser logs each 4xx as an error.
  // The other routes still refuse without a session.
  api.get('/api/me', async (c) => {
    const session = await readSession(db, c)
    if (!session) {
      return c.json({ signedIn: false }, 200, {
        ...NO_STORE,
        'set-cookie': clearedCookie(siteOf(c, site).secure),
      })
    }
    const rows = await db.query<{ first_seen: Date; last_sign_in: Date }>(
      'SELECT first_seen, last_sign_in FROM accounts WHERE address = $1',
      [session.address],
    )
    const account = rows[0]
    return c.json(
      {
        signedIn: true,
        address: session.address,
        chainId: session.chainId,
        firstSeen: account ? new Date(account.first_seen).toISOString() : null,
        lastSignIn: account ? new Date(account.last_sign_in).toISOString() : null,
      },
      200,
      NO_STORE,
    )
  })

  api.post('/api/logout', async (c) => {
    const session = await readSession(db, c)
    if (session) await db.query('DELETE FROM sessions WHERE token_hash = $1', [session.tokenHash])
    return c.json({ signedOut: true }, 200, {
      ...NO_STORE,
      'set-cookie': clearedCookie(siteOf(c, site).secure),
    })
  })

  api.get('/api/payments', async (c) => {
    const session = await requireSession(c)
    return c.json({ payments: await listPayments(db, session.address) }, 200, NO_STORE)
  })

  const perAccount = createRateLimit(limits.paymentsPerAccount ?? { burst: 10, perSecond: 0.2 })
  api.post(
    '/api/payments',
    rateLimit(
      limits.payments ?? { burst: 20, perSecond: 0.5 },
      byAddress,
      'Too many payments recorded: wait and try again',
    ),
    async (c) => {
      const session = await requireSession(c)
      // Counted per account too, so one account cannot spread its records over many addresses.
      spend(perAccount, session.address, 'Too many payments recorded: wait and try again')
      const body = await readJson(c)
      const { payment, created } = await recordPayment(db, parameters.chain, session.address, body)
      return c.json(payment, created ? 201 : 200, NO_STORE)
    },
  )

  api.all('/api/*', (c) => {
    throw new ApiError(404, `No API route ${c.req.method} ${c.req.path}`)
  })
  return api
}
