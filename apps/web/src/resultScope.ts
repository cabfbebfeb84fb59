import type { SessionView } from './hooks/usePairlink.js'

/**
 * What a shown result (a verified signature, a payment's status) holds for: one account on one chain. When it
 * changes, the app clears those results.
 *
 * @example
 * resultScope({ address: '0xf39F…', chainId: 1, peerMeta: null }) // '0xf39F…@1'
 */
export function resultScope(session: Pick<SessionView, 'address' | 'chainId'> | undefined): string {
  return session ? `${session.address}@${session.chainId}` : ''
}
