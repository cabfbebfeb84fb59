import type { Client } from '../createClient.js'
import { ClientClosedError } from '../errors.js'
import { getInternal } from '../session.js'

/**
 * Closes the bridge socket and keeps the stored session, for app shutdown and tests. Pending requests and a pending
 * connect reject with `ClientClosedError`. A later request opens the socket again; the dapp's other tabs are no
 * longer followed.
 */
export async function close(client: Client): Promise<void> {
  const internal = getInternal(client)
  internal.transport?.close()
  internal.tabs?.close()
  internal.tabs = undefined
  const error = new ClientClosedError()
  const pending = [...internal.pending.values()]
  internal.pending.clear()
  for (const request of pending) request.reject(error)
  internal.handshake?.reject(error)
  internal.handshake = undefined
  internal.uri = undefined
}
