import type { Provider } from '@pairlink/provider'
import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { type Hex, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { WagmiProvider } from 'wagmi'
import { reconnect } from 'wagmi/actions'
import type { Pairlink } from '../src/createPairlink.js'
import { queryClient, wagmiConfig } from '../src/wagmiConfig.js'

/** anvil's dev account 0: a well-known test key, never a real one. */
export const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)

/** What the wallet (or the node behind the provider) answers to one request; a thrown error is its refusal. */
export type Answer = (method: string, params: unknown) => unknown

/** The dev account's own answers: it signs messages and typed data for real, as a wallet would. */
export const signs: Answer = async (method, params) => {
  const [first, second] = params as [Hex, string]
  if (method === 'personal_sign') return account.signMessage({ message: { raw: first } })
  if (method === 'eth_signTypedData_v4') return account.signTypedData(JSON.parse(second))
  throw new Error(`unexpected ${method}`)
}

/** A Pairlink provider with a connected session, over `answer`, and what the test does with it. */
export type FakeWallet = {
  provider: Provider
  /** The requests that reached the wallet or the node, in order (the provider's own `eth_chainId` is not one). */
  asked: { method: string; params: unknown }[]
  /** Moves the session to another chain, as the wallet's session update does (`chainChanged`). */
  setChain: (chainId: number) => void
  /** Ends the session, as the wallet does (`accountsChanged([])`, `disconnect`). */
  end: () => void
}

/**
 * A Pairlink provider as the connector and the cards see it: a session on `chainId` with the dev account, whose
 * requests `answer` settles. The seam of the connected view's wallet actions — what the real provider does with a
 * request (the bridge, the wallet, its checks) is its own tests' business.
 */
export function fakeWallet(answer: Answer = signs, chainId = 31337): FakeWallet {
  const asked: FakeWallet['asked'] = []
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const emit = (event: string, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(payload)
  }
  let accounts: string[] = [account.address]
  let chain = chainId
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      if (method === 'eth_chainId') return numberToHex(chain)
      if (method === 'eth_accounts') return [...accounts]
      asked.push({ method, params })
      return answer(method, params)
    },
    enable: async () => [...accounts],
    disconnect: async () => {},
    on(event: string, listener: (payload: unknown) => void) {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
      return provider
    },
    removeListener(event: string, listener: (payload: unknown) => void) {
      listeners.get(event)?.delete(listener)
      return provider
    },
    client: {
      ready: Promise.resolve(),
      get connected() {
        return accounts.length > 0
      },
    },
    get accounts() {
      return [...accounts]
    },
    get chainId() {
      return chain
    },
  }
  return {
    provider: provider as unknown as Provider,
    asked,
    setChain(next) {
      chain = next
      emit('chainChanged', numberToHex(next))
    },
    end() {
      accounts = []
      emit('accountsChanged', [])
      emit('disconnect', new Error('Session disconnected'))
    },
  }
}

/** The app's wagmi config over the fake wallet's provider, for an app on `appChainId`. */
export function configFor(wallet: FakeWallet, appChainId = 31337) {
  return wagmiConfig({
    provider: wallet.provider,
    config: { chainId: appChainId },
    protocol: 1,
  } as unknown as Pairlink)
}

/** The app's wagmi config over the fake wallet, connected as the connected view connects it. */
export async function connectedConfig(wallet: FakeWallet, appChainId = 31337) {
  const config = configFor(wallet, appChainId)
  await reconnect(config)
  if (config.state.status !== 'connected') throw new Error('wagmi did not connect')
  return config
}

/** The providers the connected view renders its cards in (Connected.tsx), over `config`. */
export function Providers({
  config,
  children,
}: {
  config: ReturnType<typeof configFor>
  children: ReactNode
}) {
  return (
    <WagmiProvider config={config} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </WagmiProvider>
  )
}

/**
 * Renders `ui` as the connected view does, with wagmi connected to the fake wallet; `rerender` keeps the providers.
 *
 * @example
 * const view = await renderConnected(<SignMessage address={account.address} />, fakeWallet())
 */
export async function renderConnected(ui: ReactNode, wallet: FakeWallet, appChainId = 31337) {
  const config = await connectedConfig(wallet, appChainId)
  const view = render(<Providers config={config}>{ui}</Providers>)
  return {
    ...view,
    config,
    rerender: (next: ReactNode) => view.rerender(<Providers config={config}>{next}</Providers>),
  }
}
