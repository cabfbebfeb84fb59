import { assertType, expectTypeOf, test } from 'vitest'
import { WebSocket as WsWebSocket } from 'ws'
import { request } from './actions/request.js'
import { type Client, type ClientBase, createClient } from './createClient.js'
import { type DappActions, dappActions } from './decorators/dappActions.js'
import { type WalletActions, walletActions } from './decorators/walletActions.js'
import type { WebSocketConstructor } from './socket.js'

const bridge = 'http://127.0.0.1:1'

test('default: the bare client has state, events, killSession, close and extend, no role actions', () => {
  const client = createClient({ bridge })
  expectTypeOf(client).toEqualTypeOf<Client>()
  expectTypeOf(client.connected).toEqualTypeOf<boolean>()
  expectTypeOf(client.killSession).returns.toEqualTypeOf<Promise<void>>()
  expectTypeOf(client.close).returns.toEqualTypeOf<Promise<void>>()
  expectTypeOf(client).toMatchTypeOf<ClientBase>()
  // @ts-expect-error the bare client cannot connect
  client.connect
  // @ts-expect-error nor approve
  client.approveSession
})

test('behavior: extend(dappActions) adds the dapp actions and no wallet action', () => {
  const dapp = createClient({ bridge }).extend(dappActions)
  expectTypeOf(dapp).toMatchTypeOf<DappActions>()
  expectTypeOf(dapp.connect).returns.resolves.toHaveProperty('accounts').toEqualTypeOf<string[]>()
  expectTypeOf(dapp.signPersonalMessage).returns.toEqualTypeOf<Promise<string>>()
  expectTypeOf(dapp.chainId).toEqualTypeOf<number>()
  // @ts-expect-error a dapp client has no wallet action
  dapp.approveSession
  // @ts-expect-error nor updateSession
  dapp.updateSession
})

test('behavior: client.request<T>() types its result like the stand-alone request<T>(client, …)', async () => {
  const dapp = createClient({ bridge }).extend(dappActions)
  expectTypeOf(dapp.request<string[]>({ method: 'eth_accounts' })).toEqualTypeOf<Promise<string[]>>()
  expectTypeOf(request<string[]>(dapp, { method: 'eth_accounts' })).toEqualTypeOf<Promise<string[]>>()
  expectTypeOf(dapp.request({ method: 'eth_chainId' })).toEqualTypeOf<Promise<unknown>>()
  const accounts: string[] = await dapp.request<string[]>({ method: 'eth_accounts' })
  assertType<string[]>(accounts)
})

test('behavior: extend(walletActions) adds the wallet actions and no dapp action', () => {
  const wallet = createClient({ bridge }).extend(walletActions)
  expectTypeOf(wallet).toMatchTypeOf<WalletActions>()
  expectTypeOf(wallet.approveSession).parameter(0).toHaveProperty('accounts').toEqualTypeOf<string[]>()
  // @ts-expect-error a wallet client has no dapp action
  wallet.connect
})

test('behavior: extend is chainable and each result carries every extension', () => {
  const both = createClient({ bridge })
    .extend(dappActions)
    .extend(walletActions)
    .extend((client) => ({ greet: () => `hi ${client.peerId}`, count: 1 as const }))
  expectTypeOf(both).toEqualTypeOf<
    Client<DappActions & WalletActions & { readonly greet: () => string; readonly count: 1 }>
  >()
  expectTypeOf(both.greet).returns.toEqualTypeOf<string>()
  expectTypeOf(both.count).toEqualTypeOf<1>()
  expectTypeOf(both.request<number>({ method: 'x' })).toEqualTypeOf<Promise<number>>()
  expectTypeOf(both.approveRequest).toBeFunction()
  // An extended client is still a client for the stand-alone actions.
  assertType<Client>(both)
})

test('error: an extension cannot replace a base member', () => {
  // @ts-expect-error `connected` is the client's own state
  createClient({ bridge }).extend(() => ({ connected: 'yes' }))
})

test('args: WebSocket takes the ws package class and the DOM WebSocket without casts', () => {
  assertType<WebSocketConstructor>(WsWebSocket)
  assertType<WebSocketConstructor>(globalThis.WebSocket)
  createClient({ bridge, WebSocket: WsWebSocket })
  createClient({ bridge, WebSocket: globalThis.WebSocket })
})
