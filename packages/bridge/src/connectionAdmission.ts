import type { IncomingMessage } from 'node:http'
import type { Socket as NetSocket } from 'node:net'
import type { Duplex } from 'node:stream'
import { addressKey } from './addressKey.js'
import { createKeyCounts } from './keyCounts.js'
import type { BridgeCounts } from './metrics.js'
import type { BridgeOptions } from './resolveBridgeOptions.js'

const noop = () => {}
const TOO_MANY = 'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'

/**
 * Who a connection is and whether its address may open one more: the per-address connection limit
 * (`maxConnectionsPerIp`), counted from a connection's first byte, or from its upgrade request behind a proxy.
 */
export function createConnectionAdmission(
  options: Pick<BridgeOptions, 'trustProxy' | 'maxConnectionsPerIp'>,
  counts: Pick<BridgeCounts, 'connectionsRefused' | 'connectionsPending'>,
) {
  const perAddress = createKeyCounts()

  const addressOf = (request: IncomingMessage) => {
    const forwarded = options.trustProxy ? request.headers['x-forwarded-for'] : undefined
    // The last entry is the one our own proxy appended; earlier ones are whatever the client claimed.
    const last = typeof forwarded === 'string' ? forwarded.split(',').pop()?.trim() : undefined
    return last || request.socket.remoteAddress || 'unknown'
  }

  // Takes one of the address's slots for `socket` until it closes; `false` (and a 429) when none is left.
  const admit = (socket: Duplex, key: string) => {
    if (perAddress.get(key) >= options.maxConnectionsPerIp) {
      counts.connectionsRefused++
      socket.end(TOO_MANY)
      return false
    }
    perAddress.add(key)
    socket.once('close', () => perAddress.add(key, -1))
    return true
  }

  // Without a proxy, every TCP connection is counted from its first byte: one that never finishes its upgrade
  // request (half-open) holds a slot like a WebSocket does. Behind a proxy every connection is the proxy's, so the
  // count waits for X-Forwarded-For in the upgrade request.
  const counted = new WeakSet<Duplex>()
  const onConnection = (socket: NetSocket) => {
    if (options.trustProxy || options.maxConnectionsPerIp === 0) return
    socket.on('error', noop)
    if (!admit(socket, addressKey(socket.remoteAddress ?? 'unknown'))) return
    counted.add(socket)
    counts.connectionsPending++
    socket.once('close', () => {
      if (counted.delete(socket)) counts.connectionsPending--
    })
  }

  return {
    /** The client's address: the socket's, or behind a trusted proxy the last `X-Forwarded-For` entry. */
    addressOf,
    /** The server's `connection` listener. */
    onConnection,
    /**
     * Admits an upgrade request (`socket` counted since its first byte, or now); its address and address key, or
     * `undefined` once refused with a 429.
     */
    upgrade(request: IncomingMessage, socket: Duplex) {
      const address = addressOf(request)
      const key = addressKey(address)
      if (counted.delete(socket)) counts.connectionsPending--
      else if (options.maxConnectionsPerIp > 0 && !admit(socket, key)) return undefined
      return { address, key }
    },
  }
}
