import '@rainbow-me/rainbowkit/styles.css'
import { pairlink } from '@pairlink/wagmi'
import { ConnectButton, connectorsForWallets, RainbowKitProvider, type Wallet } from '@rainbow-me/rainbowkit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { defineChain } from 'viem'
import { createConfig, createConnector, http, useAccount, useSignMessage, WagmiProvider } from 'wagmi'

// A RainbowKit page (RainbowKit 2 on wagmi 2) with Pairlink as a custom wallet entry: RainbowKit draws the QR code
// of the URI the connector emits (`display_uri`), so Pairlink's own modal stays closed. The relay and the chain's RPC
// come from the page's query (`?relay=ws://…&rpc=http://…`).
const query = new URLSearchParams(window.location.search)
const rpc = query.get('rpc') ?? ''
const anvil = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
})
const metadata = {
  name: 'RainbowKit app',
  description: 'installed from tarballs',
  url: window.location.origin,
  icons: [],
}

const pairlinkWallet = (): Wallet => ({
  id: 'pairlink',
  name: 'Pairlink',
  iconUrl:
    'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"%3E%3Crect width="28" height="28" rx="6" fill="%23334"/%3E%3C/svg%3E',
  iconBackground: '#ffffff',
  qrCode: { getUri: (uri) => uri },
  createConnector: (details) =>
    createConnector((config) => ({
      ...pairlink({ relayUrl: query.get('relay') ?? undefined, showQrModal: false, metadata })(config),
      ...details,
    })),
})

const connectors = connectorsForWallets([{ groupName: 'Self-hosted', wallets: [pairlinkWallet] }], {
  appName: metadata.name,
  projectId: 'unused-by-pairlink',
})
const config = createConfig({ connectors, chains: [anvil], transports: { [anvil.id]: http(rpc) } })
const queryClient = new QueryClient()

/** The pairing URI RainbowKit draws as its QR code, as the connector emits it (`display_uri`). */
function useDisplayUri() {
  const [uri, setUri] = useState<string>()
  useEffect(() => {
    const connector = config.connectors.find((one) => one.id === 'pairlink')
    const listen = ({ type, data }: { type: string; data?: unknown }) => {
      if (type === 'display_uri') setUri(data as string)
    }
    connector?.emitter.on('message', listen)
    return () => connector?.emitter.off('message', listen)
  }, [])
  return uri
}

function App() {
  const { address, status } = useAccount()
  const { signMessage, data: signature, error } = useSignMessage()
  const uri = useDisplayUri()
  return (
    <main>
      <ConnectButton />
      {uri && (
        <output data-testid="display-uri" hidden>
          {uri}
        </output>
      )}
      <p data-testid="status">{status}</p>
      {address && <p data-testid="address">{address}</p>}
      <button
        type="button"
        data-testid="sign"
        onClick={() => signMessage({ message: 'Hello from RainbowKit' })}
      >
        Sign
      </button>
      {signature && <p data-testid="signature">{signature}</p>}
      {error && <p data-testid="error">{error.message}</p>}
    </main>
  )
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <RainbowKitProvider>
            <App />
          </RainbowKitProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
