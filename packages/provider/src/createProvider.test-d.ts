import type { RpcError } from '@pairlink/protocol'
import { assertType, expectTypeOf, test } from 'vitest'
import {
  type CreateProviderParameters,
  createProvider,
  type Provider,
  type ProviderEvents,
} from './createProvider.js'
import type { ConnectionRefusedError } from './errors.js'
import type { RequestArguments } from './httpConnection.js'

const parameters = { bridge: 'http://127.0.0.1:1', rpc: { 1: 'http://127.0.0.1:2' }, chainId: 1 } as const

test('default: createProvider returns an EIP-1193 Provider with its state typed', () => {
  const provider = createProvider(parameters)
  expectTypeOf(provider).toEqualTypeOf<Provider>()
  expectTypeOf(provider.accounts).toEqualTypeOf<string[]>()
  expectTypeOf(provider.chainId).toEqualTypeOf<number>()
  expectTypeOf(provider.connected).toEqualTypeOf<boolean>()
  expectTypeOf(provider.isWalletConnect).toEqualTypeOf<true>()
  expectTypeOf(provider.enable).returns.toEqualTypeOf<Promise<string[]>>()
  expectTypeOf(provider.disconnect).returns.toEqualTypeOf<Promise<void>>()
})

test('behavior: request takes { method, params } and resolves with unknown (EIP-1193), whatever the method', () => {
  const provider = createProvider(parameters)
  expectTypeOf(provider.request).parameter(0).toEqualTypeOf<RequestArguments>()
  expectTypeOf(provider.request({ method: 'eth_chainId' })).toEqualTypeOf<Promise<unknown>>()
  expectTypeOf(provider.request({ method: 'eth_getBalance', params: ['0x0', 'latest'] })).toEqualTypeOf<
    Promise<unknown>
  >()
  provider.request({ method: 'eth_subscribe', params: { name: 'x' } })
  // @ts-expect-error a method is required
  provider.request({ params: [] })
  // @ts-expect-error params are an array or an object, never a string
  provider.request({ method: 'eth_call', params: '0x' })
  // @ts-expect-error the method is a string
  provider.request({ method: 1 })
})

test('behavior: each event hands its listener its own payload type', () => {
  const provider = createProvider(parameters)
  provider.on('chainChanged', (chainId) => expectTypeOf(chainId).toEqualTypeOf<string>())
  provider.on('accountsChanged', (accounts) => expectTypeOf(accounts).toEqualTypeOf<string[]>())
  provider.on('connect', (info) => expectTypeOf(info).toEqualTypeOf<{ chainId: string }>())
  provider.on('display_uri', (uri) => expectTypeOf(uri).toEqualTypeOf<string>())
  provider.on('relay_refused', (error) => expectTypeOf(error).toEqualTypeOf<ConnectionRefusedError>())
  provider.on('disconnect', (error) => expectTypeOf(error).toEqualTypeOf<RpcError>())
  provider.once('block', (block) => expectTypeOf(block).toEqualTypeOf<ProviderEvents['block']>())
  expectTypeOf(provider.on('error', () => {})).toEqualTypeOf<Provider>()
  // @ts-expect-error no such event
  provider.on('chainChange', () => {})
  // @ts-expect-error chainChanged carries a hex string, not a number
  provider.on('chainChanged', (chainId: number) => chainId)
  // @ts-expect-error removeListener checks the listener too
  provider.removeListener('accountsChanged', (accounts: number) => accounts)
})

test('args: the options are typed, for both protocol versions', () => {
  assertType<CreateProviderParameters>({ version: 2, projectId: 'p', relayUrl: 'wss://relay', chainId: 1 })
  assertType<CreateProviderParameters>({
    version: 1,
    bridge: 'https://bridge',
    rpcUrl: 'http://rpc',
    timeout: 1,
  })
  // @ts-expect-error only versions 1 and 2
  assertType<CreateProviderParameters>({ version: 3 })
  // @ts-expect-error rpc maps chain ids to URLs
  assertType<CreateProviderParameters>({ rpc: { 1: 2 } })
  // @ts-expect-error the polling interval is milliseconds, a number
  assertType<CreateProviderParameters>({ pollingInterval: '1s' })
})
