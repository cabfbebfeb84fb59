import { type Block, createBlockTracker, createHttpConnection } from '@pairlink/provider'
import type { Database } from '../db/createDatabase.js'

/** Parameters of {@link createPaymentFollower}. */
export type CreatePaymentFollowerParameters = {
  db: Database
  rpcUrl: string
  chainId: number
  /** Blocks (including the payment's own) after which a payment counts as confirmed. @default 3 */
  confirmations?: number | undefined
  /** Milliseconds between polls of the chain's head. @default 4000 */
  pollingInterval?: number | undefined
  /** Called when a poll or an update fails; following goes on. */
  onError?: ((error: Error) => void) | undefined
}

type Open = { tx_hash: string; status: 'pending' | 'included'; block_number: string | number | null }
type Receipt = { blockNumber: string; status: string } | null

/**
 * Follows every pending payment to confirmation on the server's own, so a payment is confirmed even when the tab
 * that sent it was closed: on each new block (the provider's block polling) it looks up the receipts of the open
 * payments and records pending → included in block N → confirmed (or failed when the transaction reverted).
 *
 * @example
 * const follower = createPaymentFollower({ db, rpcUrl, chainId })
 * follower.start()
 */
export function createPaymentFollower(parameters: CreatePaymentFollowerParameters) {
  const { db, chainId, confirmations = 3, onError = () => {} } = parameters
  const http = createHttpConnection({ url: parameters.rpcUrl, timeout: 10_000 })
  // One block at a time: a slow node must not let two passes update the same payment out of order.
  let pass: Promise<void> = Promise.resolve()

  const tracker = createBlockTracker({
    request: (args) => http.request(args),
    pollingInterval: parameters.pollingInterval,
    onError,
    onBlock(block) {
      pass = pass.then(() => update(block)).catch((error: unknown) => onError(error as Error))
    },
  })

  async function update(block: Block) {
    const head = Number(block.number)
    const open = await db.query<Open>(
      "SELECT tx_hash, status, block_number FROM payments WHERE chain_id = $1 AND status IN ('pending', 'included')",
      [chainId],
    )
    for (const payment of open) {
      const receipt = (await http.request({
        method: 'eth_getTransactionReceipt',
        params: [payment.tx_hash],
      })) as Receipt
      if (!receipt) {
        // A receipt that disappears means the including block was reorganised away: the payment is pending again.
        if (payment.status === 'included') {
          await db.query(
            "UPDATE payments SET status = 'pending', block_number = NULL, confirmations = 0, updated_at = now() WHERE tx_hash = $1",
            [payment.tx_hash],
          )
        }
        continue
      }
      const included = Number(receipt.blockNumber)
      const count = Math.max(0, head - included + 1)
      const status = receipt.status === '0x0' ? 'failed' : count >= confirmations ? 'confirmed' : 'included'
      await db.query(
        `UPDATE payments SET status = $2, block_number = $3, confirmations = $4, updated_at = now(),
           confirmed_at = CASE WHEN $2 = 'confirmed' THEN now() ELSE NULL END
         WHERE tx_hash = $1`,
        [payment.tx_hash, status, included, count],
      )
    }
  }

  return {
    start: () => tracker.start(),
    /** Stops polling and waits for the pass in progress. */
    async stop() {
      tracker.stop()
      await pass
    },
  }
}
