import { getAddress, type Hash, isAddress } from 'viem'
import type { Database } from '../db/createDatabase.js'
import type { ChainReader } from '../payments/chainReader.js'
import { observe, type PaymentDepths, type PaymentStatus, WAITING } from '../payments/paymentState.js'
import { ApiError, stringField } from './http.js'

/** The code of a refusal for a hash the node has not seen: a client may retry it while the transaction spreads. */
const UNKNOWN_TRANSACTION = 'ERR_PAYMENT_UNKNOWN_TRANSACTION'
/** A payment as the API returns it: every field but the dates is read from the chain. */
export type Payment = {
  txHash: string
  chainId: number
  from: string
  to: string
  value: string
  status: PaymentStatus
  blockNumber: number | null
  confirmations: number
  /** Deep enough that the server no longer re-checks it; its confirmations stop counting there. */
  final: boolean
  createdAt: string
  updatedAt: string
  confirmedAt: string | null
}

/** Options of {@link recordPayment}. */
export type RecordPaymentOptions = PaymentDepths & {
  /** Payments per account that may wait for a block (pending or reorged) at once. @default 20 */
  maxPending?: number | undefined
}

type Row = {
  tx_hash: string
  chain_id: number
  from_address: string
  to_address: string
  value_wei: string
  status: PaymentStatus
  block_number: string | null
  confirmations: number
  final: boolean
  created_at: Date
  updated_at: Date
  confirmed_at: Date | null
}

/**
 * Records a payment the signed-in account sent, from the chain's own account of it: the body names the hash and,
 * for a checkout, what was asked (`to`, `value`); sender, recipient, value and chain come from the node. Refused
 * (4xx, nothing written) when the node does not know the hash, when `account` did not send it, or when it does
 * not pay what was asked. Recording the same hash again answers the existing record (`created: false`).
 *
 * @example
 * const { payment, created } = await recordPayment(db, chain, session.address, body)
 */
export async function recordPayment(
  db: Database,
  chain: ChainReader,
  account: string,
  body: Record<string, unknown>,
  options: RecordPaymentOptions = {},
): Promise<{ payment: Payment; created: boolean }> {
  const txHash = stringField(body, 'txHash', 66).toLowerCase() as Hash
  if (!/^0x[0-9a-f]{64}$/.test(txHash))
    throw new ApiError(400, "Field 'txHash' must be a 32-byte 0x-hex hash")
  const expectedTo = optionalField(body, 'to', 42)
  if (expectedTo !== undefined && !isAddress(expectedTo, { strict: false }))
    throw new ApiError(400, "Field 'to' must be an Ethereum address")
  const expectedValue = optionalField(body, 'value', 78)
  if (expectedValue !== undefined && !/^\d+$/.test(expectedValue))
    throw new ApiError(400, "Field 'value' must be an amount in wei (digits only)")

  const tx = await read(chain.transaction(txHash))
  if (!tx)
    throw new ApiError(
      422,
      'The chain does not know this transaction (yet): send it first, then record it again',
      {},
      UNKNOWN_TRANSACTION,
    )
  if (tx.from.toLowerCase() !== account.toLowerCase())
    throw new ApiError(403, 'This transaction was not sent by the signed-in account')
  if (tx.to === null) throw new ApiError(422, 'This transaction creates a contract: it pays nobody')
  if (expectedTo !== undefined && getAddress(expectedTo) !== getAddress(tx.to))
    throw new ApiError(422, 'This transaction pays another recipient than the one asked')
  if (expectedValue !== undefined && BigInt(expectedValue) !== tx.value)
    throw new ApiError(422, 'This transaction pays another amount than the one asked')

  const [chainId, receipt, head] = await read(
    Promise.all([chain.chainId(), chain.receipt(txHash), chain.blockNumber()]),
  )
  const state = receipt ? observe(receipt, head, options) : WAITING
  const from = getAddress(tx.from)
  const maxPending = options.maxPending ?? 20

  const now = new Date()
  return db.transaction(async (q) => {
    // The account's row serialises its concurrent recordings, so the cap below holds under a race (on SQLite the
    // transaction's write lock does).
    await q.query('SELECT address FROM accounts WHERE address = $1 FOR UPDATE', [from])
    const existing = (await q.query<Row>('SELECT * FROM payments WHERE tx_hash = $1', [txHash]))[0]
    if (existing && existing.from_address === from && existing.status !== 'dropped')
      return { payment: toPayment(existing), created: false }
    if (state.status === 'pending') {
      const [count] = await q.query<{ n: number }>(
        "SELECT CAST(count(*) AS integer) AS n FROM payments WHERE from_address = $1 AND status IN ('pending', 'reorged')",
        [from],
      )
      if ((count?.n ?? 0) >= maxPending)
        throw new ApiError(
          429,
          `Too many payments waiting for a block (${maxPending}): wait until they are included or dropped`,
        )
    }
    const values = [
      txHash,
      chainId,
      from,
      getAddress(tx.to as string),
      tx.value.toString(),
      state.status,
      state.blockNumber?.toString() ?? null,
      state.blockHash,
      state.confirmations,
      state.final,
      state.status === 'confirmed' ? now : null,
      now,
    ]
    // A dropped payment the sender records again starts over in a new epoch; so does a row an old server let
    // someone else claim (only the sender may hold a hash).
    const rows = await q.query<Row>(
      `INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status, block_number,
         block_hash, confirmations, final, confirmed_at, pending_since, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $12)
       ON CONFLICT (tx_hash) DO UPDATE SET chain_id = $2, from_address = $3, to_address = $4, value_wei = $5,
         status = $6, block_number = $7, block_hash = $8, confirmations = $9, final = $10, confirmed_at = $11,
         epoch = payments.epoch + 1, pending_since = $12, created_at = $12, updated_at = $12, claim_token = NULL,
         claimed_until = NULL
       RETURNING *`,
      values,
    )
    return { payment: toPayment(rows[0]!), created: !existing || existing.from_address !== from }
  })
}

/** The account's payments, newest first, with the confirmations the follower last read: the one count to show. */
export async function listPayments(
  db: Pick<Database, 'query'>,
  address: string,
  limit = 50,
): Promise<Payment[]> {
  const rows = await db.query<Row>(
    'SELECT * FROM payments WHERE from_address = $1 ORDER BY created_at DESC LIMIT $2',
    [address, limit],
  )
  return rows.map(toPayment)
}

function optionalField(body: Record<string, unknown>, name: string, maxLength: number): string | undefined {
  return body[name] === undefined ? undefined : stringField(body, name, maxLength)
}

/** A node that cannot be read is the server's problem, not bad input: 502, and nothing is written. */
async function read<value>(reading: Promise<value>): Promise<value> {
  try {
    return await reading
  } catch (error) {
    throw new ApiError(502, 'The chain cannot be read right now: try again', {}, undefined, { cause: error })
  }
}

function toPayment(row: Row): Payment {
  return {
    txHash: row.tx_hash,
    chainId: row.chain_id,
    from: row.from_address,
    to: row.to_address,
    value: row.value_wei,
    status: row.status,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    confirmations: row.confirmations,
    final: row.final,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
  }
}
