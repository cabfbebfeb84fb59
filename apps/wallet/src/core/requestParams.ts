import { PROVIDER_ERROR_CODES, RpcError } from '@pairlink/protocol'
import { type Hex, isAddress, isHex, stringToHex } from 'viem'
import { parseChainId } from './chains.js'

/** The message of `personal_sign` / `eth_sign`, as raw bytes, and the address asked to sign it. */
export type MessageParams = { address: string | undefined; raw: Hex }

/** EIP-712 typed data as dapps send it (`eth_signTypedData`, `_v3`, `_v4`). */
export type TypedDataParams = {
  address: string | undefined
  typedData: {
    domain: Record<string, unknown>
    types: Record<string, Array<{ name: string; type: string }>>
    primaryType: string
    message: Record<string, unknown>
  }
}

/** A transaction request with its quantities parsed; fields the dapp left out stay out (the node fills them). */
export type TransactionParams = {
  from: string | undefined
  to: string | undefined
  value: bigint | undefined
  data: Hex | undefined
  gas: bigint | undefined
  nonce: number | undefined
  gasPrice: bigint | undefined
  maxFeePerGas: bigint | undefined
  maxPriorityFeePerGas: bigint | undefined
  /** The chain the dapp meant the transaction for, when it said (EIP-1474 `chainId`). */
  chainId: number | undefined
}

const INVALID_PARAMS = -32602

function invalidParams(reason: string): RpcError {
  return new RpcError(`Invalid params: ${reason}`, { code: INVALID_PARAMS })
}

/**
 * Reads `personal_sign` (`[data, address]`) and `eth_sign` (`[address, data]`). Some dapps swap the order of
 * `personal_sign`, so whichever side is an address is taken as the address. Data that is not `0x` hex is UTF-8
 * text (v1 sends text as hex, other clients do not).
 */
export function readMessageParams(method: string, params: readonly unknown[]): MessageParams {
  let [data, address] = method === 'eth_sign' ? [params[1], params[0]] : [params[0], params[1]]
  if (method === 'personal_sign' && isAddressLike(data) && !isAddressLike(address))
    [data, address] = [address, data]
  if (typeof data !== 'string') throw invalidParams(`${method} needs a message`)
  return {
    address: isAddressLike(address) ? address : undefined,
    raw: isHex(data) ? data : stringToHex(data),
  }
}

/** Reads `[address, typedData]` (a JSON string or an object), tolerating the swapped order. */
export function readTypedDataParams(method: string, params: readonly unknown[]): TypedDataParams {
  let [address, data] = [params[0], params[1]]
  if (!isAddressLike(address) && isAddressLike(data)) [address, data] = [data, address]
  let typedData: unknown = data
  if (typeof data === 'string') {
    try {
      typedData = JSON.parse(data)
    } catch {
      throw invalidParams(`${method} typed data is not valid JSON`)
    }
  }
  if (Array.isArray(typedData)) {
    throw new RpcError(`${method} with legacy (v1 array) typed data is not supported`, {
      code: PROVIDER_ERROR_CODES.UNSUPPORTED_METHOD,
    })
  }
  if (!isRecord(typedData) || !isRecord(typedData.types) || typeof typedData.primaryType !== 'string') {
    throw invalidParams(`${method} typed data needs types, primaryType, domain and message`)
  }
  return {
    address: isAddressLike(address) ? address : undefined,
    typedData: {
      domain: isRecord(typedData.domain) ? typedData.domain : {},
      types: typedData.types as TypedDataParams['typedData']['types'],
      primaryType: typedData.primaryType,
      message: isRecord(typedData.message) ? typedData.message : {},
    },
  }
}

/** Reads `[tx]` of `eth_sendTransaction` / `eth_signTransaction`; quantities may be hex, decimal or numbers. */
export function readTransactionParams(method: string, params: readonly unknown[]): TransactionParams {
  const tx = params[0]
  if (!isRecord(tx)) throw invalidParams(`${method} needs a transaction object`)
  const to = tx.to
  if (to !== undefined && to !== null && to !== '' && !isAddressLike(to))
    throw invalidParams('"to" is not an address')
  const data = tx.data ?? tx.input
  if (data !== undefined && data !== null && data !== '' && !isHex(data))
    throw invalidParams('"data" is not hex')
  const nonce = quantity(tx.nonce, 'nonce')
  return {
    from: isAddressLike(tx.from) ? tx.from : undefined,
    to: isAddressLike(to) ? to : undefined,
    value: quantity(tx.value, 'value'),
    // v1's parseTransactionData turns a missing `data` into "" and "" into "0x": both mean no calldata.
    data: isHex(data) && data !== '0x' ? data : undefined,
    gas: quantity(tx.gas ?? tx.gasLimit, 'gas'),
    nonce: nonce === undefined ? undefined : Number(nonce),
    gasPrice: quantity(tx.gasPrice, 'gasPrice'),
    maxFeePerGas: quantity(tx.maxFeePerGas, 'maxFeePerGas'),
    maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
    chainId: tx.chainId === undefined || tx.chainId === null ? undefined : readChainId(tx.chainId),
  }
}

function readChainId(value: unknown): number {
  const id = parseChainId(value)
  if (id === undefined) throw invalidParams('"chainId" is not a chain id')
  return id
}

function quantity(value: unknown, name: string): bigint | undefined {
  if (value === undefined || value === null || value === '' || value === '0x') return undefined
  try {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
    // v1 strips one leading zero nibble ("0x001"), so odd-length hex is normal here.
    if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value)
  } catch {}
  throw invalidParams(`"${name}" is not a quantity`)
}

/** An address-shaped value (checksum not enforced: dapps send lower-case addresses). */
function isAddressLike(value: unknown): value is string {
  return typeof value === 'string' && isAddress(value, { strict: false })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
