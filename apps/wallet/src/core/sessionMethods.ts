import { type JsonRpcRequest, RpcError } from '@pairlink/protocol'
import { type LocalAccount, numberToHex } from 'viem'
import { parseChainId } from './chains.js'
import { isRecord } from './requestParams.js'
import { SIGNING_REQUEST_METHODS } from './signingMethods.js'
import { signRequest, unsupportedMethod } from './signRequest.js'

/** Parameters of {@link answerSessionMethod}. */
export type AnswerSessionMethodParameters = {
  address: string
  /** The chain the request is for (v1: the session's; v2: the request's own). */
  chainId: number
  /** Switches the session to `chainId` (`wallet_switchEthereumChain`). */
  switchChain(chainId: number): Promise<void>
}

/**
 * Answers the methods a wallet answers from the session itself rather than by a signature (accounts, chain id,
 * chain switch and add); `undefined` for any other method. Throws `-32602` for a switch without a chain id.
 *
 * @example
 * const own = await answerSessionMethod(request, { address, chainId: 31337, switchChain })
 */
export async function answerSessionMethod(
  request: Pick<JsonRpcRequest, 'method' | 'params'>,
  { address, chainId, switchChain }: AnswerSessionMethodParameters,
): Promise<{ result: unknown } | undefined> {
  const params = Array.isArray(request.params) ? request.params : []
  switch (request.method) {
    case 'eth_accounts':
    case 'eth_requestAccounts':
      return { result: [address] }
    case 'eth_chainId':
      return { result: numberToHex(chainId) }
    case 'net_version':
      return { result: String(chainId) }
    case 'wallet_switchEthereumChain':
    case 'wallet_addEthereumChain': {
      const next = parseChainId(isRecord(params[0]) ? params[0].chainId : undefined)
      if (next === undefined)
        throw new RpcError(`Invalid params: ${request.method} needs a chainId`, { code: -32602 })
      // EIP-3326/3085 answer null on success; adding a chain does not switch to it.
      if (request.method === 'wallet_switchEthereumChain') await switchChain(next)
      return { result: null }
    }
    default:
      return undefined
  }
}

/**
 * Answers a call request as the wallet does once the person approved it: from the session
 * ({@link answerSessionMethod}), else by signing (`signRequest`) on `chainId`. Throws `RpcError` (4200 for a method
 * the wallet does not implement, and the signing core's codes).
 *
 * @example
 * const { status, result } = await answerRequest(request, { account, rpcUrl, chainId: 31337, switchChain })
 */
export async function answerRequest(
  request: Pick<JsonRpcRequest, 'method' | 'params'>,
  parameters: Omit<AnswerSessionMethodParameters, 'address'> & { account: LocalAccount; rpcUrl: string },
): Promise<{ status: 'approved' | 'signed' | 'sent'; result: unknown }> {
  const { account, chainId } = parameters
  const own = await answerSessionMethod(request, { ...parameters, address: account.address })
  if (own) return { status: 'approved', result: own.result }
  if (!(SIGNING_REQUEST_METHODS as readonly string[]).includes(request.method))
    throw unsupportedMethod(request.method)
  return signRequest(request, { account, rpcUrl: parameters.rpcUrl, chainId })
}
