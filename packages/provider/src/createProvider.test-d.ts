import type { Cacao } from '@pairlink/client/v2'
import { expectTypeOf, test } from 'vitest'
import {
  type Block,
  type ConnectionRefusedError,
  createProvider,
  createV2Client,
  type Provider,
  type RequestArguments,
  type V2Client,
  type V2ConnectReturnType,
} from './index.js'

test('default: a v1 provider is an EIP-1193 provider whose request resolves unknown', () => {
  const provider = createProvider({ bridge: 'http://127.0.0.1:1', rpcUrl: 'http://127.0.0.1:8545' })
  expectTypeOf(provider).toEqualTypeOf<Provider>()
  expectTypeOf(provider.request).parameter(0).toEqualTypeOf<RequestArguments>()
  expectTypeOf(provider.request({ method: 'eth_chainId' })).toEqualTypeOf<Promise<unknown>>()
  expectTypeOf(provider.request({ method: 'eth_getBalance', params: ['0x0', 'latest'] })).toEqualTypeOf<
    Promise<unknown>
  >()
  expectTypeOf(provider.enable()).toEqualTypeOf<Promise<string[]>>()
  expectTypeOf(provider.chainId).toEqualTypeOf<number>()
  expectTypeOf(provider.isWalletConnect).toEqualTypeOf<true>()
  // @ts-expect-error a request names its method
  provider.request({ params: [] })
  // @ts-expect-error params are a list or an object
  provider.request({ method: 'eth_call', params: '0x' })
  // @ts-expect-error the version is 1 or 2
  createProvider({ version: 3 })
  // @ts-expect-error rpc maps chain ids to URLs
  createProvider({ rpc: { 1: 8545 } })
})

test('behavior: each event hands its own payload, and on() chains', () => {
  const provider = createProvider({ version: 2, relayUrl: 'ws://127.0.0.1:1' })
  expectTypeOf(
    provider.on('chainChanged', (chainId) => expectTypeOf(chainId).toEqualTypeOf<string>()),
  ).toEqualTypeOf<Provider>()
  provider.on('accountsChanged', (accounts) => expectTypeOf(accounts).toEqualTypeOf<string[]>())
  provider.on('connect', ({ chainId }) => expectTypeOf(chainId).toEqualTypeOf<string>())
  provider.on('block', (block) => expectTypeOf(block).toEqualTypeOf<Block>())
  provider.on('display_uri', (uri) => expectTypeOf(uri).toEqualTypeOf<string>())
  provider.on('relay_refused', (error) => expectTypeOf(error).toEqualTypeOf<ConnectionRefusedError>())
  provider.once('disconnect', (error) => expectTypeOf(error.code).toEqualTypeOf<number>())
  // @ts-expect-error no such event
  provider.on('chainChange', () => {})
  // @ts-expect-error chainChanged carries a hex string, not a number
  provider.on('chainChanged', (chainId: number) => chainId)
})

test('behavior: a v2 client connects to its session and says what the wallet signed in', async () => {
  const client = createV2Client({ relayUrl: 'ws://127.0.0.1:1' })
  expectTypeOf(client).toEqualTypeOf<V2Client>()
  expectTypeOf(client.version).toEqualTypeOf<2>()
  const connected = await client.connect({ chainId: 1 })
  expectTypeOf(connected).toEqualTypeOf<V2ConnectReturnType>()
  expectTypeOf(connected.accounts).toEqualTypeOf<string[]>()
  expectTypeOf(connected.cacaos).toEqualTypeOf<Cacao[] | undefined>()
  client.on('connect', (payload) => expectTypeOf(payload).toEqualTypeOf<V2ConnectReturnType>())
  // @ts-expect-error chainId is a number
  client.connect({ chainId: 'eip155:1' })
})
