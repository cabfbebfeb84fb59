import type { SignClient } from '../createSignClient.js'
import { getInternal } from '../internal.js'
import type { PendingRequest, Session } from '../types.js'

/**
 * Either role: the client's sessions (restored ones included once `client.ready` settled).
 *
 * @example
 * await client.ready
 * const [session] = getSessions(client)
 */
export function getSessions(client: SignClient): Session[] {
  return Object.values(getInternal(client).state.sessions)
}

/** Either role: the session of `topic`, `undefined` when there is none. */
export function getSession(client: SignClient, parameters: { topic: string }): Session | undefined {
  return getInternal(client).state.sessions[parameters.topic]
}

/**
 * Wallet: the requests received and not answered yet, oldest first — after a reload too, as the SDK's
 * `getPendingSessionRequests`.
 *
 * @example
 * await client.ready
 * for (const { id, topic, params } of getPendingRequests(client)) show(id, topic, params.request)
 */
export function getPendingRequests(client: SignClient): PendingRequest[] {
  return Object.values(getInternal(client).state.requests).sort((a, b) => a.id - b.id)
}
