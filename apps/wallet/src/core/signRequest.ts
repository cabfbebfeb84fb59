import { type JsonRpcRequest, PROVIDER_ERROR_CODES, RpcError } from '@pairlink/protocol'
import {
  createWalletClient,
  formatEther,
  type Hex,
  http,
  InsufficientFundsError,
  isAddressEqual,
  type LocalAccount,
  BaseError as ViemError,
} from 'viem'
import { formatChain, getChain } from './chains.js'
import { INSUFFICIENT_FUNDS_MESSAGE, OTHER_CHAIN_MESSAGE } from './errors.js'
import {
  readMessageParams,
  readTransactionParams,
  readTypedDataParams,
  type TransactionParams,
} from './requestParams.js'
import { isSmartAccount, smartAccountTransactionError } from './toSmartAccount.js'

/** Parameters of {@link signRequest}. */
export type SignRequestParameters = {
  /** The session's account; requests naming another address are refused (4100). */
  account: LocalAccount
  /** The JSON-RPC node transactions are prepared with and broadcast to. */
  rpcUrl: string
  /** The session's chain. */
  chainId: number
}

/** What {@link signRequest} produced: a signature (`signed`) or the hash of a broadcast transaction (`sent`). */
export type SignRequestReturnType = { status: 'signed' | 'sent'; result: Hex }

/** The text of the wallet's own rejection (EIP-1193 4001). */
export const USER_REJECTED_MESSAGE = 'User rejected the request.'

/**
 * Signs a call request with viem: messages and typed data with the account's key, transactions prepared with the
 * node (nonce, gas, fees) and — for `eth_sendTransaction` — broadcast to it. A smart account (`toSmartAccount`)
 * signs in its contract's form and sends no transactions. Throws {@link RpcError}: 4200 for a method it does not
 * sign or a transaction from a smart account, 4100 for an address that is not the account, -32602 for bad params, -32003
 * `insufficient funds for gas * price + value…` when the account cannot pay, -32603 `The wallet is on another
 * chain…` when the transaction is for another chain than the session's or the node's, -32603 when the node fails.
 *
 * @example
 * const { result } = await signRequest(request, { account, rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 })
 */
export async function signRequest(
  request: Pick<JsonRpcRequest, 'method' | 'params'>,
  parameters: SignRequestParameters,
): Promise<SignRequestReturnType> {
  const { account } = parameters
  const { method } = request
  const params = Array.isArray(request.params) ? request.params : []
  switch (method) {
    case 'personal_sign':
    case 'eth_sign': {
      const { address, raw } = readMessageParams(method, params)
      checkAddress(address, account, 'message')
      return { status: 'signed', result: await account.signMessage({ message: { raw } }) }
    }
    case 'eth_signTypedData':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v4': {
      const { address, typedData } = readTypedDataParams(method, params)
      checkAddress(address, account, 'message')
      try {
        // viem derives EIP712Domain from the domain itself; a dapp's own copy of it must not be hashed as a struct.
        const { EIP712Domain: _, ...types } = typedData.types
        return { status: 'signed', result: await account.signTypedData({ ...typedData, types }) }
      } catch (error) {
        throw new RpcError(`Invalid params: ${describe(error)}`, { code: -32602, cause: error })
      }
    }
    case 'eth_sendTransaction':
    case 'eth_signTransaction': {
      const tx = readTransactionParams(method, params)
      checkAddress(tx.from, account, 'transaction')
      if (isSmartAccount(account)) throw smartAccountTransactionError(account.address)
      if (tx.chainId !== undefined && tx.chainId !== parameters.chainId) {
        throw otherChain(`the transaction is for ${formatChain(tx.chainId)}`, parameters.chainId)
      }
      try {
        return await sendOrSign(tx, method === 'eth_sendTransaction', parameters)
      } catch (error) {
        throw nodeFailure(error, tx)
      }
    }
    default:
      throw unsupportedMethod(method)
  }
}

/** The 4200 error for a method the wallet does not handle, naming it. */
export function unsupportedMethod(method: string): RpcError {
  return new RpcError(`The wallet does not support the method "${method}"`, {
    code: PROVIDER_ERROR_CODES.UNSUPPORTED_METHOD,
  })
}

async function sendOrSign(
  tx: TransactionParams,
  broadcast: boolean,
  { account, rpcUrl, chainId }: SignRequestParameters,
): Promise<SignRequestReturnType> {
  const chain = getChain(chainId, rpcUrl)
  const client = createWalletClient({
    account,
    chain,
    transport: http(rpcUrl, { retryCount: 0, timeout: 30_000 }),
  })
  const request = {
    ...(tx.to && { to: tx.to as Hex }),
    ...(tx.value !== undefined && { value: tx.value }),
    ...(tx.data && { data: tx.data }),
    ...(tx.gas !== undefined && { gas: tx.gas }),
    ...(tx.nonce !== undefined && { nonce: tx.nonce }),
    ...(tx.gasPrice !== undefined
      ? { gasPrice: tx.gasPrice }
      : {
          ...(tx.maxFeePerGas !== undefined && { maxFeePerGas: tx.maxFeePerGas }),
          ...(tx.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: tx.maxPriorityFeePerGas }),
        }),
  }
  if (broadcast) {
    // The node would refuse a transaction signed for another chain with its own words ("invalid chain id for
    // signer"); asked first, the answer can say which chains differ.
    const nodeChainId = await client.getChainId()
    if (nodeChainId !== chainId) throw otherChain(`its node serves ${formatChain(nodeChainId)}`, chainId)
    const hash = await client.sendTransaction(request as Parameters<typeof client.sendTransaction>[0])
    return { status: 'sent', result: hash }
  }
  const prepared = await client.prepareTransactionRequest(
    request as Parameters<typeof client.prepareTransactionRequest>[0],
  )
  const { from: _, account: __, ...serializable } = prepared as typeof prepared & { from?: unknown }
  const signed = await account.signTransaction({ ...serializable, chainId } as Parameters<
    LocalAccount['signTransaction']
  >[0])
  return { status: 'signed', result: signed }
}

function checkAddress(
  address: string | undefined,
  account: LocalAccount,
  what: 'message' | 'transaction',
): void {
  if (address === undefined || isAddressEqual(address as Hex, account.address)) return
  // The text of v1's hooked-wallet subprovider (reference §5.1), which dapps built on v1 may already show.
  throw new RpcError(`Unknown address - unable to sign ${what} for this address: "${address}"`, {
    code: PROVIDER_ERROR_CODES.UNAUTHORIZED,
  })
}

/** A node's failure as the dapp should read it: what happened, with the code libraries expect for it. */
function nodeFailure(error: unknown, tx: TransactionParams): RpcError {
  const found = error instanceof ViemError ? error : undefined
  if (found?.walk((e) => e instanceof InsufficientFundsError) instanceof InsufficientFundsError) {
    const value = tx.value ? `${formatEther(tx.value)} ETH plus gas` : 'the gas'
    return new RpcError(`${INSUFFICIENT_FUNDS_MESSAGE}: the account's balance does not cover ${value}`, {
      code: -32003,
      cause: error,
    })
  }
  if (error instanceof RpcError) return error
  return new RpcError(describe(error), { code: -32603, cause: error })
}

function otherChain(what: string, chainId: number): RpcError {
  return new RpcError(
    `${OTHER_CHAIN_MESSAGE}: its session is on ${formatChain(chainId)}, but ${what}. Switch the wallet or the dapp to the same chain.`,
    { code: -32603 },
  )
}

function describe(error: unknown): string {
  if (error instanceof ViemError) return error.shortMessage
  return error instanceof Error ? error.message : String(error)
}
