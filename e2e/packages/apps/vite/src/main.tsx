import { pairlink } from '@pairlink/wagmi'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { defineChain } from 'viem'
import {
  createConfig,
  http,
  useAccount,
  useConnect,
  useDisconnect,
  useSignMessage,
  WagmiProvider,
} from 'wagmi'

// An app as a team starts one today: Vite, React, wagmi and TanStack Query, with Pairlink's connector among its
// connectors. The relay and the chain's RPC come from the page's query (`?relay=ws://…&rpc=http://…`).
const query = new URLSearchParams(window.location.search)
const rpc = query.get('rpc') ?? ''
const anvil = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
})
const config = createConfig({
  chains: [anvil],
  connectors: [
    pairlink({
      relayUrl: query.get('relay') ?? undefined,
      metadata: {
        name: 'Vite app',
        description: 'installed from tarballs',
        url: window.location.origin,
        icons: [],
      },
    }),
  ],
  transports: { [anvil.id]: http(rpc) },
})
const queryClient = new QueryClient()

function App() {
  const { address, status } = useAccount()
  const { connect, connectors, error } = useConnect()
  const { disconnect } = useDisconnect()
  const { signMessage, data: signature, error: signError } = useSignMessage()
  const failure = error ?? signError
  return (
    <main>
      <p data-testid="status">{status}</p>
      {address && <p data-testid="address">{address}</p>}
      {connectors.map((connector) => (
        <button
          type="button"
          key={connector.uid}
          data-testid="connect"
          onClick={() => connect({ connector })}
        >
          Connect with {connector.name}
        </button>
      ))}
      <button
        type="button"
        data-testid="sign"
        onClick={() => signMessage({ message: 'Hello from a Vite app' })}
      >
        Sign
      </button>
      <button type="button" data-testid="disconnect" onClick={() => disconnect()}>
        Disconnect
      </button>
      {signature && <p data-testid="signature">{signature}</p>}
      {failure && <p data-testid="error">{failure.message}</p>}
    </main>
  )
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
