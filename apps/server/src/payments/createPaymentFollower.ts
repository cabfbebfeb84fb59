import { randomUUID } from 'node:crypto'
import { createSerialQueue } from '@pairlink/protocol'
import type { Hash } from 'viem'
import type { Database } from '../db/createDatabase.js'
import { type ChainReader, createChainReader } from './chainReader.js'
import {
  type Observation,
  observe,
  type PaymentDepths,
  type PaymentStatus,
  rankSql,
  WAITING,
} from './paymentState.js'

/** Parameters of {@link createPaymentFollower}. */
export type CreatePaymentFollowerParameters = PaymentDepths & {
  db: Database
  /** The node to read; without it, one is made from `rpcUrl`. */
  chain?: ChainReader | undefined
  rpcUrl?: string | undefined
  chainId: number
  /** Milliseconds a payment may wait for a block (after it is recorded or reorganised away) before it is dropped. @default 3_600_000 */
  dropAfterMs?: number | undefined
  /** Milliseconds a follower holds its claim on the payments of one pass. @default 60_000 */
  claimMs?: number | undefined
  /** Payments per pass. @default 200 */
  batchSize?: number | undefined
  /** Milliseconds between polls of the chain's head. @default 4000 */
  pollingInterval?: number | undefined
  /** Called when a poll or an update fails; following goes on. */
  onError?: ((error: Error) => void) | undefined
}

type Open = {
  tx_hash: Hash
  status: PaymentStatus
  block_number: string | null
  block_hash: string | null
  epoch: number
  pending_since: Date
}

/**
 * Follows every recorded payment on the server's own, so a payment is settled even when the tab that sent it was
 * closed. Each new head starts a pass: the follower claims the open payments no other follower holds (`FOR UPDATE
 * SKIP LOCKED`, so servers sharing one database split them), reads each one's receipt, and moves it pending →
 * included in block N → confirmed (or failed), re-checking until final; a block reorganised away sends it back.
 * Every write is conditional: it applies only in the epoch it was read in and never lowers a status's rank or a
 * confirmation count, so a slower follower cannot overwrite a newer state.
 *
 * @example
 * const follower = createPaymentFollower({ db, rpcUrl, chainId })
 * follower.start()
 */
export function createPaymentFollower(parameters: CreatePaymentFollowerParameters) {
  const { db, chainId, onError = () => {} } = parameters
  if (!parameters.chain && !parameters.rpcUrl)
    throw new Error('createPaymentFollower needs `chain` or `rpcUrl`')
  const chain = parameters.chain ?? createChainReader({ url: parameters.rpcUrl as string })
  const dropAfterMs = parameters.dropAfterMs ?? 3_600_000
  const claimMs = parameters.claimMs ?? 60_000
  const batchSize = parameters.batchSize ?? 200
  const pollingInterval = parameters.pollingInterval ?? 4000
  let timer: ReturnType<typeof setTimeout> | undefined
  let running = false
  let lastHead: bigint | undefined
  // One pass at a time in this process; other processes are kept off the same rows by the claims.
  const passes = createSerialQueue()

  async function pass(): Promise<void> {
    const head = await chain.blockNumber()
    const token = randomUUID()
    const now = new Date()
    const open = await db.query<Open>(
      `UPDATE payments SET claim_token = $1, claimed_until = $2
       WHERE tx_hash IN (
         SELECT tx_hash FROM payments
         WHERE chain_id = $3 AND NOT final AND status <> 'dropped' AND (claimed_until IS NULL OR claimed_until < $5)
         ORDER BY updated_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING tx_hash, status, block_number, block_hash, epoch, pending_since`,
      [token, new Date(now.getTime() + claimMs), chainId, batchSize, now],
    )
    // Waiting for a block since before this: dropped unless the chain shows it now.
    const cutoff = now.getTime() - dropAfterMs
    try {
      for (const payment of open) {
        try {
          await follow(payment, head, token, payment.pending_since.getTime() < cutoff)
        } catch (error) {
          onError(error as Error)
        }
      }
    } finally {
      await db.query('UPDATE payments SET claim_token = NULL, claimed_until = NULL WHERE claim_token = $1', [
        token,
      ])
    }
  }

  async function follow(payment: Open, head: bigint, token: string, overdue: boolean) {
    const receipt = await chain.receipt(payment.tx_hash)
    if (payment.block_number === null) {
      if (receipt) return advance(payment, observe(receipt, head, parameters), token)
      // Only what the chain shows decides: a payment not mined in time is dropped and costs no more calls.
      if (overdue) return advance(payment, { ...WAITING, status: 'dropped' }, token)
      return
    }
    if (receipt && receipt.blockHash === payment.block_hash)
      return advance(payment, observe(receipt, head, parameters), token)
    // The receipt moved or vanished: a reorg only if the node's block at that height is another one. A node behind
    // (no block there yet) proves nothing and changes nothing.
    const canonical = await chain.blockHash(BigInt(payment.block_number))
    if (canonical === null || canonical === payment.block_hash) return
    const next = receipt
      ? observe(receipt, head, parameters)
      : (await chain.transaction(payment.tx_hash))
        ? WAITING
        : { ...WAITING, status: 'reorged' as const }
    const now = new Date()
    await db.query(
      `UPDATE payments SET status = $2, block_number = $3, block_hash = $4, confirmations = $5, final = $6,
         confirmed_at = $10, epoch = epoch + 1, reorgs = reorgs + 1, pending_since = $11, updated_at = $11
       WHERE tx_hash = $1 AND epoch = $7 AND claim_token = $8 AND NOT final AND block_hash IS NOT DISTINCT FROM $9`,
      [
        ...values(payment.tx_hash, next),
        payment.epoch,
        token,
        payment.block_hash,
        next.status === 'confirmed' ? now : null,
        now,
      ],
    )
  }

  /** A step forward within the epoch the payment was read in; anything older or lower is ignored. */
  async function advance(payment: Open, next: Observation, token: string) {
    const now = new Date()
    await db.query(
      `UPDATE payments SET status = $2, block_number = $3, block_hash = $4, confirmations = $5, final = $6,
         confirmed_at = CASE WHEN $9 THEN coalesce(confirmed_at, $10) END, updated_at = $10
       WHERE tx_hash = $1 AND epoch = $7 AND claim_token = $8 AND NOT final
         AND (block_hash IS NULL OR block_hash = $4)
         AND ${rankSql('status')} <= ${rankSql('CAST($2 AS text)')} AND confirmations <= $5`,
      [...values(payment.tx_hash, next), payment.epoch, token, next.status === 'confirmed', now],
    )
  }

  function tick() {
    timer = undefined
    void passes.add(async () => {
      try {
        const head = await chain.blockNumber()
        if (head === lastHead) return
        lastHead = head
        await pass()
      } catch (error) {
        onError(error as Error)
      } finally {
        if (running) timer = setTimeout(tick, pollingInterval)
      }
    })
  }

  return {
    /** Polls the head every `pollingInterval` and runs a pass on each new block. */
    start() {
      if (running) return
      running = true
      tick()
    },
    /** Stops polling and waits for the pass in progress. */
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      timer = undefined
      await passes.idle()
    },
    /** Runs one pass now (after any pass in progress), whether or not the head moved. */
    pass(): Promise<void> {
      return passes.add(pass)
    },
  }
}

function values(txHash: string, next: Observation) {
  return [
    txHash,
    next.status,
    next.blockNumber?.toString() ?? null,
    next.blockHash,
    next.confirmations,
    next.final,
  ]
}
