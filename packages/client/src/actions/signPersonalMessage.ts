import type { Client } from '../createClient.js'
import { type RequestOptions, request } from './request.js'

/** Parameters of {@link signPersonalMessage}: `[data, address]`; UTF-8 data is sent as `0x` hex, as v1 does. */
export type SignPersonalMessageParameters = [data: string, address: string]

/**
 * Dapp: asks the wallet for a `personal_sign` signature.
 *
 * @example
 * const signature = await client.signPersonalMessage(['Hello', client.accounts[0]])
 */
export async function signPersonalMessage(
  client: Client,
  parameters: SignPersonalMessageParameters,
  options?: RequestOptions,
): Promise<string> {
  return request<string>(client, { method: 'personal_sign', params: parameters }, options)
}
