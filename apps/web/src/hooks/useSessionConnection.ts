import { useLayoutEffect } from 'react'
import { useConfig, useConnection } from 'wagmi'
import { reconnect } from 'wagmi/actions'

/** The account and chain wagmi's connection is on: those the wallet actions sign and send with. */
export type SessionConnection = { address: `0x${string}`; chainId: number }

/**
 * wagmi's connection to the page's session, once there is one. The app's own provider already holds the session
 * (restored on load, or just paired through the app's modal), so Pairlink's connector over that provider is
 * reconnected once when the view mounts: its `isAuthorized()` is true, and `connect({ isReconnecting: true })`
 * neither opens a modal nor asks the wallet or the node anything. From then on the connector follows the provider's
 * account, chain and disconnect events. `undefined` until wagmi says connected, and again once the session ends.
 *
 * @example
 * const connection = useSessionConnection()
 * if (connection) return <SignMessage address={connection.address} />
 */
export function useSessionConnection(): SessionConnection | undefined {
  const config = useConfig()
  const connection = useConnection()
  // Not WagmiProvider's reconnectOnMount, which reconnects at every render of the provider (each notice or bridge
  // state of the app above it), passing through 'reconnecting' each time. Before the first paint: the reconnect
  // settles in microtasks, so the cards are there when the view first shows.
  useLayoutEffect(() => {
    if (config.state.status === 'disconnected') void reconnect(config)
  }, [config])
  return connection.status === 'connected'
    ? { address: connection.address, chainId: connection.chainId }
    : undefined
}
