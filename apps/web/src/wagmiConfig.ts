import { pairlink } from '@pairlink/wagmi'
import { QueryClient } from '@tanstack/react-query'
import { type Chain, defineChain } from 'viem'
import { type Config, createConfig, custom } from 'wagmi'
import type { Pairlink } from './createPairlink.js'
import { formatChain, listChains } from './format.js'

/**
 * The app's queries: read when their key or the chain's head changes (Connected.tsx refetches on each settled head),
 * never on a timer, a window focus or a retry of their own — the provider's block polling is the one clock, and the
 * RPC banner already says why a read failed.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
    mutations: { retry: false },
  },
})

const made = new WeakMap<Pairlink, Config>()

/** A chain as wagmi wants it: only its id and name matter, the reads go through the session's provider. */
function toChain(id: number): Chain {
  return defineChain({
    id,
    name: formatChain(id),
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  })
}

/**
 * The wagmi config over the page's session, made once per {@link Pairlink} (React may render the connected view
 * more than once): Pairlink's connector over the app's own provider (its wallet time-out, its block polling), and
 * every chain the switch menu offers read through that provider, so reads follow the wallet's chain as they did with
 * viem's `custom` transport. Only the connected view imports this module, so wagmi loads with it, not with the
 * connect screen.
 *
 * @example
 * <WagmiProvider config={wagmiConfig(pairlink)}>…</WagmiProvider>
 */
export function wagmiConfig(session: Pairlink): Config {
  let config = made.get(session)
  if (!config) {
    const [first, ...rest] = listChains(session.config.chainId).map(toChain)
    if (!first) throw new Error('the app has no chain')
    const chains: [Chain, ...Chain[]] = [first, ...rest]
    // No retries: a retried signing request would ask the person twice.
    const transport = custom(session.provider, { retryCount: 0 })
    config = createConfig({
      chains,
      connectors: [pairlink({ provider: session.provider })],
      transports: Object.fromEntries(chains.map((chain) => [chain.id, transport])),
      // The session is the app's own (restored by its client); wagmi keeps nothing of its own across reloads.
      storage: null,
      multiInjectedProviderDiscovery: false,
    })
    made.set(session, config)
  }
  return config
}
