import type { Client } from '../createClient.js'
import { type RequestOptions, request } from './request.js'

/** Parameters of {@link signTypedData}: `[address, typedData]`, the typed data as JSON text or object. */
export type SignTypedDataParameters = [address: string, typedData: string | object]

/** Dapp: asks the wallet for an EIP-712 signature (`eth_signTypedData`, the v1 wire method). */
export async function signTypedData(
  client: Client,
  parameters: SignTypedDataParameters,
  options?: RequestOptions,
): Promise<string> {
  return request<string>(client, { method: 'eth_signTypedData', params: parameters }, options)
}
