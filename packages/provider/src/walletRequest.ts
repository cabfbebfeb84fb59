import type { OnRequestStatus } from '@pairlink/client'
import { isAddress, RpcError, SessionError, SIGNING_METHODS, V1_ERRORS } from '@pairlink/protocol'
import {
  ChainDisconnectedError,
  DisconnectedError,
  UnauthorizedError,
  UserRejectedRequestError,
} from './errors.js'
import type { ProviderClient } from './session.js'

// Codes a wallet may send that mean what they say (EIP-1193, EIP-3326's 4902, JSON-RPC). -32000 is not among
// them: v1 wallets send -32000 for every error, rejections included (reference §4.3).
const STANDARD_CODES = new Set([4001, 4100, 4200, 4900, 4901, 4902, -32700, -32600, -32601, -32602, -32603])

// How a person's no reads, v1's own default (`Failed or Rejected Request`) included. A -32000 worded otherwise is a
// failure the wallet reports in the node's words (`insufficient funds for gas * price + value`), not a rejection.
const REJECTION = /reject|denied|declin|cancel/i

/** Whether a method goes to the wallet: v1's signing methods and every `wallet_*`. */
export function isWalletMethod(method: string): boolean {
  return method.startsWith('wallet_') || (SIGNING_METHODS as readonly string[]).includes(method)
}

/** The chain id `wallet_switchEthereumChain` asks for (`[{ chainId: '0x…' }]`), `NaN` if none. */
export function targetChain(params: unknown): number {
  return Number((params as [{ chainId?: unknown }] | undefined)?.[0]?.chainId)
}

/** Parameters of {@link sendToWallet}. */
export type SendToWalletParameters = {
  client: ProviderClient
  method: string
  params: unknown
  /** Whether the provider and its client both hold a session. */
  connected: boolean
  chainId: number
  accounts: readonly string[]
  /** Whether reads could be served on a chain after a switch. */
  hasRpcUrl(chainId: number): boolean
  /** Milliseconds before the client gives up waiting for the wallet. @default no time-out */
  timeout?: number | undefined
  /** Hears each step of the request's life (the provider's `requestStatus` event). */
  onStatus?: OnRequestStatus | undefined
}

/**
 * Sends a signing or `wallet_*` request through the session after the provider's own checks: no session → 4900,
 * a transaction for another chain or a switch to a chain without RPC URL → 4901, an unknown `from` → 4100; the
 * wallet's errors come back with EIP-1193 codes.
 *
 * @example
 * const signature = await sendToWallet({ client, method: 'personal_sign', params, connected, chainId, accounts, hasRpcUrl })
 */
export async function sendToWallet(parameters: SendToWalletParameters): Promise<unknown> {
  const { client, method, params, chainId } = parameters
  if (!parameters.connected) throw new DisconnectedError(V1_ERRORS.SESSION_DISCONNECTED)
  if (method === 'wallet_switchEthereumChain') {
    const target = targetChain(params)
    if (target === chainId) return null
    if (!parameters.hasRpcUrl(target))
      throw new ChainDisconnectedError(`No RPC Url available for chainId: ${target}`)
    // v2: the session's namespaces say which chains the wallet approved; the switch is the dapp's own.
    if (client.switchChain) return client.switchChain(target).then(() => null)
  }
  const tx = (params as [{ chainId?: unknown }] | undefined)?.[0]
  if (method === 'eth_sendTransaction' && tx?.chainId !== undefined && Number(tx.chainId) !== chainId) {
    throw new ChainDisconnectedError(`The wallet is on chain ${chainId}, not ${Number(tx.chainId)}`)
  }
  const prepared = prepareWalletParams(method, params, parameters.accounts)
  try {
    return await client.request(
      { method, params: prepared as unknown[] },
      {
        timeout: parameters.timeout,
        onStatus: parameters.onStatus,
      },
    )
  } catch (error) {
    throw toWalletError(error)
  }
}

/**
 * Checks a signing request against the session's accounts and fills in a missing `from` (the first account),
 * as a wallet would; returns the params to send. Throws 4100 with v1's hooked-wallet text for an unknown address.
 */
function prepareWalletParams(method: string, params: unknown, accounts: readonly string[]): unknown {
  if (!Array.isArray(params)) return params
  const known = (address: unknown) =>
    accounts.some((account) => account.toLowerCase() === String(address).toLowerCase())
  const unknown = (what: string, address: unknown) =>
    new UnauthorizedError(`Unknown address - unable to sign ${what} for this address: "${address}"`)

  if (method === 'eth_sendTransaction' || method === 'eth_signTransaction') {
    const tx = params[0] as { from?: unknown } | undefined
    if (!tx || typeof tx !== 'object') return params
    const from = tx.from ?? accounts[0]
    if (!known(from)) throw unknown('transaction', from)
    return [{ ...tx, from }, ...params.slice(1)]
  }
  if (method === 'personal_sign') {
    // v1's order heuristic: some dapps send [address, message]; wallets expect [message, address].
    const swapped = known(params[0]) && !known(params[1])
    const ordered = swapped ? [params[1], params[0], ...params.slice(2)] : params
    if (isAddress(ordered[1]) && !known(ordered[1])) throw unknown('message', ordered[1])
    return ordered
  }
  if (method === 'eth_sign' || method.startsWith('eth_signTypedData')) {
    if (isAddress(params[0]) && !known(params[0])) throw unknown('message', params[0])
  }
  return params
}

/**
 * The EIP-1193 error for a wallet's answer: a standard code is kept; a -32000 that does not read as a rejection is a
 * failure and kept too; anything else (v1's -32000 rejections, a missing or odd code) means the person said no → 4001. Every 4001 says `User denied`, with the wallet's message after it, so
 * ethers v5 (which matches the text) and v6 (which matches the code) both report `ACTION_REJECTED`. A session error
 * → 4900.
 */
function toWalletError(error: unknown): unknown {
  if (error instanceof SessionError) return new DisconnectedError(error.message, { cause: error })
  if (error instanceof RpcError) {
    const standard = STANDARD_CODES.has(error.code) || (error.code <= -32001 && error.code >= -32099)
    if (standard && error.code !== UserRejectedRequestError.code) return error
    if (error.code === -32000 && !REJECTION.test(error.message)) return error
    return new UserRejectedRequestError(userDenied(error.message), { data: error.data, cause: error })
  }
  return error
}

/**
 * A rejection's message as ethers v5 recognises one: its `JsonRpcSigner` turns an error into `ACTION_REJECTED`
 * only when `error.message` matches `/user denied/i` (it never reads the code). The wallet's own words are kept.
 */
function userDenied(message: string): string {
  if (/user denied/i.test(message)) return message
  return message ? `User denied the request: ${message}` : 'User denied the request.'
}
