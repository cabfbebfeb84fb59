import type { Cacao } from '@pairlink/protocol/v2'

/** A payment as the server's `GET /api/payments` returns it. */
export type Payment = {
  txHash: `0x${string}`
  chainId: number
  from: `0x${string}`
  to: `0x${string}`
  /** Wei, as a decimal string. */
  value: string
  /** As the server's follower last read it from the chain; `reorged` and `dropped` are explained in the history. */
  status: 'pending' | 'included' | 'confirmed' | 'failed' | 'reorged' | 'dropped'
  blockNumber: number | null
  /** The one confirmation count to show: the server's, counted until the payment is final. */
  confirmations: number
  /** Deep enough that the server no longer re-checks it. */
  final: boolean
  createdAt: string
  updatedAt: string
  confirmedAt: string | null
}

/** The signed-in account, from `POST /api/verify` and `GET /api/me`. */
export type SignedInAccount = { address: `0x${string}`; chainId: number }

/** Which API call failed: the same status reads differently per call. */
export type ServerAction = 'nonce' | 'verify' | 'me' | 'logout' | 'recordPayment' | 'payments'

/** An API answer other than 2xx, or no answer at all (`status` 0: the server is unreachable). */
export class ServerError extends Error {
  override name = 'ServerError'
  constructor(
    readonly action: ServerAction,
    readonly status: number,
    /** The server's `{ error }` text: for logs and tests, not shown as is. */
    readonly serverMessage: string,
    /** Seconds from a 429's `Retry-After`. */
    readonly retryAfter?: number | undefined,
    /** The server's `code` for the case, when it names one (`ERR_…`): what the app dispatches on. */
    readonly code?: string | undefined,
  ) {
    super(`${action}: HTTP ${status} ${serverMessage}`)
  }
}

async function call<result>(
  action: ServerAction,
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<result> {
  let response: Response
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      // Same origin only: the session cookie rides along, and the browser adds the Origin the CSRF guard checks.
      credentials: 'same-origin',
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    })
  } catch (error) {
    throw new ServerError(action, 0, error instanceof Error ? error.message : String(error))
  }
  const body = (await response.json().catch(() => undefined)) as
    | { error?: unknown; code?: unknown }
    | undefined
  if (!response.ok) {
    const retry = Number(response.headers.get('retry-after'))
    throw new ServerError(
      action,
      response.status,
      typeof body?.error === 'string' ? body.error : response.statusText,
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
      typeof body?.code === 'string' ? body.code : undefined,
    )
  }
  return body as result
}

/**
 * A fresh single-use sign-in nonce (valid for ten minutes).
 *
 * @example
 * const { nonce, expiresAt } = await getNonce()
 */
export function getNonce(): Promise<{ nonce: string; expiresAt: string }> {
  return call('nonce', '/api/nonce')
}

/** Sends the signed EIP-4361 message; the server answers with the account and sets the session cookie. */
export function verifySignIn(message: string, signature: `0x${string}`): Promise<SignedInAccount> {
  return call('verify', '/api/verify', { method: 'POST', body: { message, signature } })
}

/**
 * Sends a CACAO, the sign-in a wallet signed with its connect approval (WalletConnect's one-click auth); the server
 * writes its message back as the wallet signed it, checks it as any sign-in, answers with the account and sets the
 * session cookie.
 */
export function verifyCacao(cacao: Cacao): Promise<SignedInAccount> {
  return call('verify', '/api/verify', { method: 'POST', body: { cacao } })
}

/** The signed-in account, or `undefined` when this browser is not signed in (`{ signedIn: false }`). */
export async function getMe(): Promise<SignedInAccount | undefined> {
  const me = await call<({ signedIn: true } & SignedInAccount) | { signedIn: false }>('me', '/api/me')
  return me.signedIn ? { address: me.address, chainId: me.chainId } : undefined
}

/** Ends the server session and clears its cookie. */
export async function logout(): Promise<void> {
  await call('logout', '/api/logout', { method: 'POST' })
}

/**
 * Records a payment the signed-in account sent, so the server follows it to confirmation. The server reads the
 * transaction from the chain; `to` and `value` are what was asked, and a transaction paying anything else is
 * refused. Recording the same hash again answers the existing record.
 *
 * A wallet may broadcast through another node than the server's, so the server may not know the hash for a moment:
 * while it answers `ERR_PAYMENT_UNKNOWN_TRANSACTION`, the call is repeated every `interval` ms for up to `patience`
 * ms, then that refusal is thrown.
 */
export async function recordPayment(
  payment: { txHash: `0x${string}`; to: `0x${string}`; value: bigint },
  { patience = 30_000, interval = 1_000 }: { patience?: number; interval?: number } = {},
): Promise<Payment> {
  const deadline = Date.now() + patience
  for (;;) {
    try {
      return await call<Payment>('recordPayment', '/api/payments', {
        method: 'POST',
        body: { txHash: payment.txHash, to: payment.to, value: payment.value.toString() },
      })
    } catch (error) {
      const unseen = error instanceof ServerError && error.code === UNKNOWN_TRANSACTION
      if (!unseen || Date.now() + interval > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, interval))
    }
  }
}

/** The server's code for a hash its node has not seen (yet). */
const UNKNOWN_TRANSACTION = 'ERR_PAYMENT_UNKNOWN_TRANSACTION'

/** The signed-in account's payments, newest first. */
export async function listPayments(): Promise<Payment[]> {
  const body = await call<{ payments?: unknown }>('payments', '/api/payments')
  return Array.isArray(body.payments) ? (body.payments as Payment[]) : []
}
