import type { SignClient } from '../createSignClient.js'
import { getInternal } from '../internal.js'
import type { PendingAuthRequest } from '../types.js'

/**
 * Wallet: the one-click auth requests received and not answered yet, oldest first — after a reload too, as the SDK's
 * `getPendingAuthRequests`.
 *
 * @example
 * await client.ready
 * for (const { id, params } of getPendingAuthRequests(client)) show(id, params.authPayload)
 */
export function getPendingAuthRequests(client: SignClient): PendingAuthRequest[] {
  return Object.values(getInternal(client).state.authRequests).sort((a, b) => a.id - b.id)
}
