import type { Provider } from '@pairlink/provider'
import { type Connector, connect, createConfig, getConnectorClient, http } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { expectTypeOf, test } from 'vitest'
import { type PairlinkParameters, pairlink } from './index.js'

test('default: pairlink() is a wagmi connector of type "pairlink" that createConfig takes', () => {
  const metadata = { name: 'Dapp', description: '', url: 'https://dapp.example', icons: [] }
  const connector = pairlink({ relayUrl: 'wss://relay.example', metadata })
  expectTypeOf(pairlink.type).toEqualTypeOf<'pairlink'>()
  const config = createConfig({
    chains: [mainnet, sepolia],
    connectors: [connector],
    transports: { [mainnet.id]: http(), [sepolia.id]: http() },
  })
  expectTypeOf(config.connectors).toMatchTypeOf<readonly Connector[]>()
  expectTypeOf(connect(config, { connector })).resolves.toHaveProperty('accounts')
  expectTypeOf(getConnectorClient(config)).resolves.toHaveProperty('chain')
})

test('behavior: the connector’s provider is Pairlink’s EIP-1193 provider', () => {
  type PairlinkConnector = ReturnType<ReturnType<typeof pairlink>>
  expectTypeOf<PairlinkConnector['id']>().toEqualTypeOf<string>()
  expectTypeOf<PairlinkConnector['getProvider']>().returns.resolves.toEqualTypeOf<Provider>()
  expectTypeOf<PairlinkConnector['attach']>().parameter(0).toEqualTypeOf<Provider>()
  expectTypeOf<PairlinkConnector['getAccounts']>().returns.resolves.toEqualTypeOf<readonly `0x${string}`[]>()
  expectTypeOf<PairlinkConnector['getChainId']>().returns.resolves.toEqualTypeOf<number>()
})

test('error: options are checked', () => {
  expectTypeOf<PairlinkParameters['version']>().toEqualTypeOf<1 | 2 | undefined>()
  // @ts-expect-error the version is 1 or 2
  pairlink({ version: 3 })
  // @ts-expect-error showQrModal is a boolean
  pairlink({ showQrModal: 'no' })
  // @ts-expect-error metadata names the dapp
  pairlink({ metadata: { url: 'https://dapp.example' } })
  // @ts-expect-error provider is a Pairlink provider
  pairlink({ provider: { request: async () => 1 } })
})
