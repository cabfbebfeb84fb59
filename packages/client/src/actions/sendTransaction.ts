import type { TransactionInput } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { type RequestOptions, request } from './request.js'

/** Parameters of {@link sendTransaction}: the transaction, normalised as v1's `parseTransactionData` does. */
export type SendTransactionParameters = TransactionInput

/**
 * Dapp: asks the wallet to sign and broadcast a transaction (`eth_sendTransaction`); resolves with its hash.
 *
 * @example
 * const hash = await client.sendTransaction({ from, to, value: 1000n })
 */
export async function sendTransaction(
  client: Client,
  parameters: SendTransactionParameters,
  options?: RequestOptions,
): Promise<string> {
  return request<string>(client, { method: 'eth_sendTransaction', params: [parameters] }, options)
}
