import { InvalidTransactionError, V1_ERRORS } from './errors.js'
import { isHex, strip0x, utf8ToHex } from './hex.js'

/** A transaction as dapps pass it: quantities as numbers, bigints, decimal or hex strings. */
export type TransactionInput = {
  from: string
  to?: string | undefined
  gas?: QuantityInput | undefined
  gasLimit?: QuantityInput | undefined
  gasPrice?: QuantityInput | undefined
  value?: QuantityInput | undefined
  nonce?: QuantityInput | undefined
  data?: string | undefined
  type?: unknown
  [field: string]: unknown
}

/** A quantity as dapps pass it. */
export type QuantityInput = number | bigint | string

/** A transaction as v1 puts it on the wire: keys in the order from, to, gasPrice, gas, value, nonce, data. */
export type WireTransaction = {
  from: string
  to?: string
  gasPrice?: string
  gas?: string
  value?: string
  nonce?: string
  data: string
}

/**
 * Normalises a transaction as v1's `parseTransactionData` does, so wallets built on v1 read it unchanged
 * (reference §4.3): a typed transaction (`type` set and not `"0"`) is returned untouched; otherwise quantities become
 * hex with v1's one-leading-zero-nibble rule, `gas` falls back to `gasLimit`, and `data` becomes `0x`-hex.
 * Throws {@link InvalidTransactionError} (`Transaction object must include a valid 'from' value.`) when `from` is not
 * `0x` and 40 hex digits. Unlike v1 it does not check a mixed-case EIP-55 checksum here: that needs keccak, a third of
 * a browser client's size budget, and the wallet that signs for the address refuses a wrong checksum anyway
 * ({@link isAddress} checks it where wanted).
 */
export function normalizeTransaction(tx: TransactionInput): WireTransaction | TransactionInput {
  if (
    typeof tx !== 'object' ||
    tx === null ||
    typeof tx.from !== 'string' ||
    !/^0x[0-9a-fA-F]{40}$/.test(tx.from)
  ) {
    throw new InvalidTransactionError(V1_ERRORS.INVALID_TRANSACTION_FROM)
  }
  if (tx.type !== undefined && tx.type !== '0') return tx

  // Fields are added in v1's key order (from, to, gasPrice, gas, value, nonce, data): wallets see the same JSON.
  const out: Record<string, string> = { from: tx.from }
  if (tx.to !== undefined) out.to = tx.to
  const quantities = { gasPrice: tx.gasPrice, gas: tx.gas ?? tx.gasLimit, value: tx.value, nonce: tx.nonce }
  for (const [name, value] of Object.entries(quantities)) {
    if (value !== undefined && value !== '') out[name] = formatQuantity(value, name)
  }
  out.data = tx.data === undefined ? '' : `0x${padHex(strip0x(tx.data))}`
  return out as WireTransaction
}

/**
 * Normalises `personal_sign` params as v1 does: the message (`params[0]`) becomes `0x`-hex of its UTF-8 bytes unless
 * it already is `0x`-hex; everything else is kept as given.
 */
export function normalizePersonalSign(params: readonly unknown[]): unknown[] {
  const [message, ...rest] = params
  if (typeof message !== 'string' || (message.startsWith('0x') && isHex(message))) return [...params]
  return [utf8ToHex(message), ...rest]
}

/** v1 quantity hex: even-padded, then exactly one leading `0` nibble dropped (`0x0001` → `0x001`, `0` → `0x0`). */
function formatQuantity(value: QuantityInput, field: string): string {
  let hex: string
  if (typeof value === 'string' && value.startsWith('0x') && isHex(value)) hex = strip0x(value)
  else {
    let n: bigint
    try {
      n = BigInt(value)
    } catch {
      throw new InvalidTransactionError(`Transaction field '${field}' is not a number`)
    }
    if (n < 0n) throw new InvalidTransactionError(`Transaction field '${field}' is negative`)
    hex = n.toString(16)
  }
  hex = padHex(hex)
  return `0x${hex.startsWith('0') ? hex.slice(1) : hex}`
}

function padHex(hex: string): string {
  return hex.length % 2 === 0 ? hex : `0${hex}`
}
