'use client'

import { close, open, setStatus } from '@pairlink/modal/open'
import { createProvider, type Provider } from '@pairlink/provider'
import { useRef, useState } from 'react'

// A dapp's own page: Pairlink's provider with its modal, over WalletConnect v2 through the relay in `?relay=`.
export function Connect() {
  const provider = useRef<Provider | undefined>(undefined)
  const [address, setAddress] = useState<string>()
  const [signature, setSignature] = useState<string>()
  const [error, setError] = useState<string>()

  const get = () => {
    const query = new URLSearchParams(window.location.search)
    provider.current ??= createProvider({
      relayUrl: query.get('relay') ?? undefined,
      modal: { open, close, setStatus },
      rpc: { 31337: query.get('rpc') ?? '' },
      chainId: 31337,
      clientParameters: {
        clientMeta: {
          name: 'Next.js app',
          description: 'installed from tarballs',
          url: window.location.origin,
          icons: [],
        },
      },
    })
    return provider.current
  }
  const run = (action: () => Promise<void>) => () =>
    action().catch((reason: Error) => setError(reason.message))

  return (
    <section>
      <button
        type="button"
        data-testid="connect"
        onClick={run(async () => {
          const [account] = await get().enable()
          setAddress(account)
        })}
      >
        Connect
      </button>
      {address && <p data-testid="address">{address}</p>}
      <button
        type="button"
        data-testid="sign"
        onClick={run(async () => {
          const message = `0x${Array.from(new TextEncoder().encode('Hello from a Next.js app'), (b) => b.toString(16).padStart(2, '0')).join('')}`
          setSignature(
            (await get().request({ method: 'personal_sign', params: [message, address] })) as string,
          )
        })}
      >
        Sign
      </button>
      {signature && <p data-testid="signature">{signature}</p>}
      {error && <p data-testid="error">{error}</p>}
    </section>
  )
}
