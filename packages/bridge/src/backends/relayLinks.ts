import type { NodeStreams } from '../mesh/nodeStreams.js'
import type { RelayLinks } from './backend.js'

/**
 * The node links a Redis backend lends the v2 store of its node (`backend.relayLinks`): its messages go in the same
 * numbered streams as v1's frames; `handle` takes what other nodes' stores sent this one.
 */
export function createRelayLinks(
  nodeId: string,
  mesh: { readonly send: NodeStreams['send'] | undefined },
  failed: (error: unknown) => void,
) {
  let handler: ((message: Buffer) => void) | undefined
  const links: RelayLinks = {
    nodeId,
    get ready() {
      return mesh.send !== undefined
    },
    send(node, message, gone) {
      const send = mesh.send
      if (!send) return false
      send(
        node,
        message,
        Buffer.byteLength(message),
        (listeners) => {
          if (listeners === 0) gone()
        },
        failed,
      )
      return true
    },
    listen(listener) {
      handler = listener
    },
  }
  return { links, handle: (message: Buffer) => handler?.(message) }
}
