import type { TransactionInput } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { type RequestOptions, request } from './request.js'

/** Parameters of {@link signTransaction}: the transaction, normalised as v1's `parseTransactionData` does. */
export type SignTransactionParameters = TransactionInput

/** Dapp: asks the wallet to sign a transaction without sending it (`eth_signTransaction`). */
export async function signTransaction(
  client: Client,
  parameters: SignTransactionParameters,
  options?: RequestOptions,
): Promise<string> {
  return request<string>(client, { method: 'eth_signTransaction', params: [parameters] }, options)
}
