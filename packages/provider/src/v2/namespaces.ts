import type { Session } from '@pairlink/client/v2'
import { RpcError, SessionError, SIGNING_METHODS, V1_ERRORS } from '@pairlink/protocol'
import { ChainDisconnectedError, UnsupportedMethodError } from '../errors.js'

/**
 * The methods a v2 dapp proposes: those the person approves in the wallet (`approval` in protocol's `METHODS`: v1's
 * signing methods and its `wallet_*` ones), each once.
 */
export const PROPOSED_METHODS: string[] = /* @__PURE__ */ SIGNING_METHODS.slice()

/** The eip155 chain ids of a session: its namespaces' `chains` and the chains of their CAIP-10 accounts, in order. */
export function chainsOf(session: Session): number[] {
  const chains = new Set<number>()
  for (const [key, namespace] of Object.entries(session.namespaces)) {
    if (key !== 'eip155' && !key.startsWith('eip155:')) continue
    const ids = [
      ...(namespace.chains ?? []),
      ...namespace.accounts.map((a) => a.split(':').slice(0, 2).join(':')),
    ]
    if (key.includes(':')) ids.push(key)
    for (const id of ids) {
      const [space, reference] = id.split(':')
      if (space === 'eip155' && /^\d+$/.test(reference ?? '')) chains.add(Number(reference))
    }
  }
  return [...chains]
}

/** The session's addresses on `chainId` (`eip155:<chainId>:0x…` accounts), without repeats. */
export function accountsOn(session: Session, chainId: number): string[] {
  const prefix = `eip155:${chainId}:`
  const accounts = Object.values(session.namespaces).flatMap((namespace) =>
    namespace.accounts.filter((account) => account.startsWith(prefix)).map((a) => a.slice(prefix.length)),
  )
  return [...new Set(accounts)]
}

/** A `chainChanged` event's data as a chain id: a number, `0x…`, a decimal string or CAIP-2 `eip155:10`. */
export function toChainNumber(data: unknown): number | undefined {
  const text = String(data).split(':').pop() ?? ''
  const id = /^0x[0-9a-f]+$/i.test(text) || /^\d+$/.test(text) ? Number(text) : Number.NaN
  return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/**
 * A v2 request's failure as the provider's errors: the wallet's JSON-RPC error keeps its code (5000 "User rejected."
 * then reads as a rejection, 4001), a chain or method the session does not hold is 4901 / 4200, and a session that
 * ended while the request waited is v1's `SessionError` (4900 in the provider).
 */
export function toProviderError(error: unknown): unknown {
  if (!(error instanceof Error) || !('code' in error)) return error
  const { code, message } = error as Error & { code: unknown; data?: unknown }
  if (code === 5100) return new ChainDisconnectedError(message)
  if (code === 5101) return new UnsupportedMethodError(message)
  if (code === 6000 || code === 'ERR_SESSION_UNKNOWN')
    return new SessionError(V1_ERRORS.SESSION_DISCONNECTED, { cause: error })
  if (typeof code === 'number')
    return new RpcError(message, { code, data: (error as { data?: unknown }).data, cause: error })
  return error
}
