import { getAddress, isAddress } from 'viem'
import type { Database } from '../db/createDatabase.js'
import { ApiError, stringField } from './http.js'

/** A payment as the API returns it. */
export type Payment = {
  txHash: string
  chainId: number
  from: string
  to: string
  value: string
  status: 'pending' | 'included' | 'confirmed' | 'failed'
  blockNumber: number | null
  confirmations: number
  createdAt: string
  updatedAt: string
  confirmedAt: string | null
}

type Row = {
  tx_hash: string
  chain_id: number
  from_address: string
  to_address: string
  value_wei: string
  status: Payment['status']
  block_number: string | number | null
  confirmations: number
  created_at: Date
  updated_at: Date
  confirmed_at: Date | null
}

/** Records a payment the signed-in account sent; the server then follows it to confirmation on its own. */
export async function recordPayment(
  db: Database,
  account: { address: string; chainId: number },
  body: Record<string, unknown>,
): Promise<Payment> {
  const txHash = stringField(body, 'txHash', 66).toLowerCase()
  if (!/^0x[0-9a-f]{64}$/.test(txHash))
    throw new ApiError(400, "Field 'txHash' must be a 32-byte 0x-hex hash")
  const to = stringField(body, 'to', 42)
  if (!isAddress(to)) throw new ApiError(400, "Field 'to' must be an Ethereum address")
  const value = stringField(body, 'value', 78)
  if (!/^\d+$/.test(value)) throw new ApiError(400, "Field 'value' must be an amount in wei (digits only)")
  const rows = await db.query<Row>(
    `INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status)
     VALUES ($1, $2, $3, $4, $5, 'pending')
     ON CONFLICT (tx_hash) DO NOTHING
     RETURNING *`,
    [txHash, account.chainId, account.address, getAddress(to), value],
  )
  if (rows.length === 0) throw new ApiError(409, 'This payment is already recorded')
  return toPayment(rows[0]!)
}

/** The account's payments, newest first. */
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

function toPayment(row: Row): Payment {
  return {
    txHash: row.tx_hash,
    chainId: row.chain_id,
    from: row.from_address,
    to: row.to_address,
    value: String(row.value_wei),
    status: row.status,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    confirmations: row.confirmations,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
  }
}
