import type { Client } from '../createClient.js'
import { type RequestOptions, request } from './request.js'

/** Parameters of {@link signMessage}: `[address, data]`, sent as given (`eth_sign`). */
export type SignMessageParameters = [address: string, data: string]

/** Dapp: asks the wallet for an `eth_sign` signature. */
export async function signMessage(
  client: Client,
  parameters: SignMessageParameters,
  options?: RequestOptions,
): Promise<string> {
  return request<string>(client, { method: 'eth_sign', params: parameters }, options)
}
