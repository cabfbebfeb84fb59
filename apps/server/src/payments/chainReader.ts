import {
  type Address,
  BaseError,
  BlockNotFoundError,
  createPublicClient,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hash,
  type Hex,
  HttpRequestError,
  hashMessage,
  hexToBool,
  http,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'

/** A transaction as the node knows it (mined or still in its pool). */
type ChainTransaction = {
  hash: Hash
  from: `0x${string}`
  /** `null` for a contract creation. */
  to: `0x${string}` | null
  value: bigint
  blockNumber: bigint | null
}

/** A mined transaction's receipt. */
export type ChainReceipt = {
  blockNumber: bigint
  blockHash: Hash
  status: 'success' | 'reverted'
}

/** What the payments code reads from the chain: the only source of a payment's sender, recipient, value and state. */
export type ChainReader = {
  /** The node's chain id (read once). */
  chainId(): Promise<number>
  blockNumber(): Promise<bigint>
  /** The canonical block's hash at `number`, `null` beyond the node's head. */
  blockHash(number: bigint): Promise<Hash | null>
  /** The transaction, `null` when the node does not know it. */
  transaction(hash: Hash): Promise<ChainTransaction | null>
  /** The receipt, `null` while the transaction is not in a block of the node's chain. */
  receipt(hash: Hash): Promise<ChainReceipt | null>
}

/** Checks signatures that only the chain can: contract accounts (EIP-1271) and accounts not deployed yet (EIP-6492). */
export type ChainVerifier = {
  /**
   * Whether `signature` is `address`'s over `message` (EIP-191), as the node's state says: one `eth_call` (viem's
   * universal validator). Throws {@link ChainUnreachableError} when the node cannot be asked.
   */
  verifyMessage(parameters: { address: Address; message: string; signature: Hex }): Promise<boolean>
}

/** The node could not be reached (or did not answer in time): nothing can be concluded from it. */
export class ChainUnreachableError extends Error {
  override name = 'ChainUnreachableError'
}

/** Parameters of {@link createChainReader}. */
export type CreateChainReaderParameters = {
  /** The node's JSON-RPC URL; user and password in it are sent as HTTP basic auth. */
  url: string
  /** Milliseconds per request. @default 10_000 */
  timeout?: number | undefined
}

/**
 * Reads transactions, receipts and blocks from the server's own node (viem's public client over HTTP).
 *
 * @example
 * const chain = createChainReader({ url: rpcUrl })
 * const tx = await chain.transaction(hash)
 */
export function createChainReader(parameters: CreateChainReaderParameters): ChainReader & ChainVerifier {
  const url = new URL(parameters.url)
  const headers: Record<string, string> = {}
  // fetch refuses URLs with credentials: they travel as an Authorization header instead.
  if (url.username || url.password) {
    const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`
    url.username = ''
    url.password = ''
  }
  const client = createPublicClient({
    transport: http(url.toString(), {
      timeout: parameters.timeout ?? 10_000,
      retryCount: 0,
      fetchOptions: { headers },
    }),
  })
  let chainId: Promise<number> | undefined
  const orNull = async <value>(read: Promise<value>, missing: new (...args: never[]) => Error) => {
    try {
      return await read
    } catch (error) {
      if (error instanceof missing) return null
      throw error
    }
  }
  return {
    chainId() {
      chainId ??= client.getChainId().catch((error: unknown) => {
        chainId = undefined
        throw error
      })
      return chainId
    },
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    async blockHash(number) {
      const block = await orNull(client.getBlock({ blockNumber: number }), BlockNotFoundError)
      return block?.hash ?? null
    },
    async transaction(hash) {
      const tx = await orNull(client.getTransaction({ hash }), TransactionNotFoundError)
      return tx && { hash: tx.hash, from: tx.from, to: tx.to, value: tx.value, blockNumber: tx.blockNumber }
    },
    async receipt(hash) {
      const receipt = await orNull(client.getTransactionReceipt({ hash }), TransactionReceiptNotFoundError)
      return (
        receipt && { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, status: receipt.status }
      )
    },
    async verifyMessage({ address, message, signature }) {
      // viem's own verifyMessage answers false when the node is unreachable too: the same check (the universal
      // validator of EIP-6492, run as a deployless call: it deploys an EIP-6492 account in the call's state, asks a
      // contract's isValidSignature, or recovers a key), with the two told apart.
      try {
        const { data } = await client.call({
          data: encodeDeployData({
            abi: erc6492SignatureValidatorAbi,
            bytecode: erc6492SignatureValidatorByteCode,
            args: [address, hashMessage(message), signature],
          }),
        })
        return hexToBool(data ?? '0x0')
      } catch (error) {
        // The node unreachable says nothing of the signature; any other failure (a revert, a malformed signature) is
        // a signature that does not verify.
        const unreachable =
          error instanceof BaseError &&
          error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError)
        if (unreachable) throw new ChainUnreachableError('The chain node is unreachable', { cause: error })
        return false
      }
    },
  }
}
