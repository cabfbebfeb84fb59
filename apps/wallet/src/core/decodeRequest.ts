import type { JsonRpcRequest } from '@pairlink/protocol'
import { formatEther, formatGwei, type Hex, hexToBytes } from 'viem'
import { getChainName, parseChainId } from './chains.js'
import { isRecord, readMessageParams, readTransactionParams, readTypedDataParams } from './requestParams.js'

/** One line of a decoded structure; `depth` indents nested structs. */
export type DecodedField = { name: string; type: string; value: string; depth: number }

/** A call request as the wallet shows it. Every value is a string or number, so it serialises to JSON as is. */
export type DecodedRequest =
  | {
      kind: 'message'
      method: string
      title: string
      address: string | undefined
      text: string | undefined
      hex: Hex
    }
  | {
      kind: 'typedData'
      method: string
      title: string
      address: string | undefined
      primaryType: string
      domain: DecodedField[]
      fields: DecodedField[]
    }
  | {
      kind: 'transaction'
      method: string
      title: string
      broadcast: boolean
      from: string | undefined
      /** `undefined` for a contract creation. */
      to: string | undefined
      /** In ETH, e.g. `"0.01"`. */
      value: string
      data: Hex
      gas: string | undefined
      nonce: string | undefined
      /** `"1.5 gwei"`, or `undefined` when the node picks the fees. */
      fees: string | undefined
    }
  | { kind: 'switchChain'; method: string; title: string; chainId: number; chainName: string }
  | { kind: 'addChain'; method: string; title: string; chainId: number; chainName: string; rpcUrls: string[] }
  | { kind: 'info'; method: string; title: string }
  | { kind: 'unsupported'; method: string; title: string; reason: string; params: string }

// Typed data can nest without end in theory; the view needs neither more depth nor more lines than this.
const MAX_DEPTH = 8
const MAX_FIELDS = 300

/**
 * Turns a call request into what the person approving it needs to read: message text, typed-data fields,
 * transaction recipient / amount / data. Malformed params decode to `unsupported` with the reason.
 *
 * @example
 * const view = decodeRequest({ id: 1, jsonrpc: '2.0', method: 'personal_sign', params: ['0x48690a', address] })
 * // { kind: 'message', text: 'Hi\n', … }
 */
export function decodeRequest(request: Pick<JsonRpcRequest, 'method' | 'params'>): DecodedRequest {
  const { method } = request
  const params = Array.isArray(request.params) ? request.params : []
  try {
    switch (method) {
      case 'personal_sign':
      case 'eth_sign': {
        const { address, raw } = readMessageParams(method, params)
        const title = method === 'eth_sign' ? 'Sign message (eth_sign)' : 'Sign message'
        return { kind: 'message', method, title, address, text: toText(raw), hex: raw }
      }
      case 'eth_signTypedData':
      case 'eth_signTypedData_v3':
      case 'eth_signTypedData_v4': {
        const { address, typedData } = readTypedDataParams(method, params)
        const { domain, types, primaryType, message } = typedData
        const domainFields = Object.entries(domain).map(([name, value]) => ({
          name,
          type: typeof value === 'number' ? 'uint256' : 'string',
          value: formatValue(value),
          depth: 0,
        }))
        const fields: DecodedField[] = []
        flatten(types, primaryType, message, 0, fields)
        return {
          kind: 'typedData',
          method,
          title: 'Sign typed data',
          address,
          primaryType,
          domain: domainFields,
          fields,
        }
      }
      case 'eth_sendTransaction':
      case 'eth_signTransaction': {
        const tx = readTransactionParams(method, params)
        const broadcast = method === 'eth_sendTransaction'
        const feePerGas = tx.maxFeePerGas ?? tx.gasPrice
        return {
          kind: 'transaction',
          method,
          title: broadcast ? 'Send transaction' : 'Sign transaction',
          broadcast,
          from: tx.from,
          to: tx.to,
          value: formatEther(tx.value ?? 0n),
          data: tx.data ?? '0x',
          gas: tx.gas?.toString(),
          nonce: tx.nonce?.toString(),
          fees: feePerGas === undefined ? undefined : `${formatGwei(feePerGas)} gwei`,
        }
      }
      case 'wallet_switchEthereumChain':
      case 'wallet_addEthereumChain': {
        const chain = params[0]
        const chainId = parseChainId(isRecord(chain) ? chain.chainId : undefined)
        if (chainId === undefined) throw new Error(`${method} needs a chainId`)
        if (method === 'wallet_switchEthereumChain') {
          return {
            kind: 'switchChain',
            method,
            title: 'Switch chain',
            chainId,
            chainName: getChainName(chainId),
          }
        }
        const name =
          isRecord(chain) && typeof chain.chainName === 'string' ? chain.chainName : getChainName(chainId)
        const urls = isRecord(chain) && Array.isArray(chain.rpcUrls) ? chain.rpcUrls.map(String) : []
        return { kind: 'addChain', method, title: 'Add chain', chainId, chainName: name, rpcUrls: urls }
      }
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return { kind: 'info', method, title: 'Share your account address' }
      case 'eth_chainId':
      case 'net_version':
        return { kind: 'info', method, title: 'Share the current chain' }
      default:
        return unsupported(method, params, `The wallet does not support ${method}`)
    }
  } catch (error) {
    return unsupported(method, params, error instanceof Error ? error.message : String(error))
  }
}

function unsupported(method: string, params: unknown[], reason: string): DecodedRequest {
  let text: string
  try {
    text = JSON.stringify(params, null, 2) ?? '[]'
  } catch {
    text = '[unreadable params]'
  }
  return { kind: 'unsupported', method, title: 'Unsupported request', reason, params: text }
}

/** The message as text when its bytes are printable UTF-8, else `undefined` (show the hex). */
export function toText(raw: Hex): string | undefined {
  if (raw === '0x') return ''
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(raw))
  } catch {
    return undefined
  }
  // Control characters other than tab and line breaks mean binary data (e.g. a 32-byte hash).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of this check
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text
}

function flatten(
  types: Record<string, Array<{ name: string; type: string }>>,
  type: string,
  value: unknown,
  depth: number,
  out: DecodedField[],
): void {
  const struct = types[type]
  if (!struct || !isRecord(value) || depth >= MAX_DEPTH) return
  for (const member of struct) {
    if (out.length >= MAX_FIELDS) return
    const item = value[member.name]
    const base = member.type.replace(/\[\d*\]$/, '')
    if (types[base] && member.type !== base && Array.isArray(item)) {
      out.push({ name: member.name, type: member.type, value: `${item.length} items`, depth })
      item.forEach((entry, index) => {
        if (out.length >= MAX_FIELDS) return
        out.push({ name: `${member.name}[${index}]`, type: base, value: '', depth: depth + 1 })
        flatten(types, base, entry, depth + 2, out)
      })
    } else if (types[member.type]) {
      out.push({ name: member.name, type: member.type, value: '', depth })
      flatten(types, member.type, item, depth + 1, out)
    } else {
      out.push({ name: member.name, type: member.type, value: formatValue(item), depth })
    }
  }
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}
