import type { ChainReceipt } from './chainReader.js'

/**
 * A payment's state. `pending`: known to the node, in no block yet. `included`: in a block, fewer confirmations
 * than asked. `confirmed`: deep enough. `failed`: included but reverted. `reorged`: its block was reorganised away
 * and the node no longer knows it. `dropped`: not in a block within the time allowed (no longer followed).
 */
export type PaymentStatus = 'pending' | 'included' | 'confirmed' | 'failed' | 'reorged' | 'dropped'

/** Depths that decide a payment's state. */
export type PaymentDepths = {
  /** Blocks (the payment's own included) after which a payment counts as confirmed. @default 3 */
  confirmations?: number | undefined
  /** Blocks after which a confirmed or failed payment is final and no longer re-checked. @default 64 */
  finality?: number | undefined
}

/** One reading of a payment on the chain. */
export type Observation = {
  status: PaymentStatus
  blockNumber: bigint | null
  blockHash: string | null
  confirmations: number
  final: boolean
}

/** What a payment waiting for a block looks like. */
export const WAITING: Observation = {
  status: 'pending',
  blockNumber: null,
  blockHash: null,
  confirmations: 0,
  final: false,
}

/** The state a receipt means at chain head `head`. */
export function observe(receipt: ChainReceipt, head: bigint, depths: PaymentDepths = {}): Observation {
  const confirmations = Math.max(1, depths.confirmations ?? 3)
  const finality = Math.max(confirmations, depths.finality ?? 64)
  // The receipt may be newer than the head read before it: a mined transaction has at least its own block.
  const count = Number((head > receipt.blockNumber ? head : receipt.blockNumber) - receipt.blockNumber + 1n)
  const status = receipt.status === 'reverted' ? 'failed' : count >= confirmations ? 'confirmed' : 'included'
  return {
    status,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    confirmations: count,
    final: status !== 'included' && count >= finality,
  }
}

/**
 * SQL for a status's rank: within one epoch a payment only moves to an equal or higher rank (pending/reorged →
 * included → confirmed/failed; pending/reorged → dropped).
 */
export function rankSql(expression: string): string {
  return `(CASE ${expression} WHEN 'pending' THEN 0 WHEN 'reorged' THEN 0 WHEN 'included' THEN 1 WHEN 'dropped' THEN 3 ELSE 2 END)`
}
