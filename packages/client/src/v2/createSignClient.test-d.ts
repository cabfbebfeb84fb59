import { assertType, expectTypeOf, test } from 'vitest'
import {
  connect,
  createSignClient,
  disconnect,
  getSessions,
  type JsonRpcResponse,
  request,
  respond,
  type Session,
  type SessionRequestParams,
  type SignClient,
  SignError,
} from './index.js'

const metadata = { name: 'dapp', description: '', url: 'https://dapp.example', icons: [] }

test('default: createSignClient needs metadata and gives a SignClient', () => {
  const client = createSignClient({ relayUrl: 'ws://127.0.0.1:1', metadata })
  expectTypeOf(client).toEqualTypeOf<SignClient>()
  expectTypeOf(client.ready).toEqualTypeOf<Promise<void>>()
  expectTypeOf(client.clientId).toEqualTypeOf<string>()
  expectTypeOf(client.close).returns.toEqualTypeOf<Promise<void>>()
  // @ts-expect-error metadata is required
  createSignClient({ relayUrl: 'ws://127.0.0.1:1' })
  // @ts-expect-error storage is a SessionStorage or false
  createSignClient({ metadata, storage: true })
  // @ts-expect-error tabs is a boolean
  createSignClient({ metadata, tabs: 'yes' })
  // @ts-expect-error the client's state is read-only
  client.clientId = 'did:key:z6Mk'
})

test('behavior: each event hands its own payload to its listener', () => {
  const client = createSignClient({ metadata })
  client.on('session_request', (event) => {
    expectTypeOf(event.id).toEqualTypeOf<number>()
    expectTypeOf(event.topic).toEqualTypeOf<string>()
    expectTypeOf(event.params).toEqualTypeOf<SessionRequestParams>()
  })
  client.on('session_connect', ({ session }) => expectTypeOf(session).toEqualTypeOf<Session>())
  client.on('display_uri', ({ uri }) => expectTypeOf(uri).toEqualTypeOf<string>())
  client.on('transport', ({ state }) => expectTypeOf(state).toEqualTypeOf<'connecting' | 'open' | 'closed'>())
  expectTypeOf(client.on('session_delete', () => {})).toEqualTypeOf<() => void>()
  // @ts-expect-error no such event
  client.on('session_created', () => {})
  // @ts-expect-error a session_request has no uri
  client.on('session_request', ({ uri }) => uri)
})

test('behavior: connect, request and respond infer their results and refuse wrong shapes', async () => {
  const client = createSignClient({ metadata })
  const { uri, approval } = await connect(client, {
    optionalNamespaces: {
      eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] },
    },
  })
  expectTypeOf(uri).toEqualTypeOf<string | undefined>()
  expectTypeOf(approval).returns.toEqualTypeOf<Promise<Session>>()
  // @ts-expect-error chains is a list
  connect(client, { optionalNamespaces: { eip155: { chains: 'eip155:1', methods: [], events: [] } } })

  const topic = (await approval()).topic
  const params = {
    topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: ['0x00', '0x01'] },
  }
  expectTypeOf(request(client, params)).toEqualTypeOf<Promise<unknown>>()
  expectTypeOf(request<`0x${string}`>(client, params)).toEqualTypeOf<Promise<`0x${string}`>>()
  // @ts-expect-error a request names its chain
  request(client, { topic, request: { method: 'eth_accounts' } })
  // @ts-expect-error expiry is in seconds, a number
  request(client, { ...params, expiry: '900' })

  assertType<JsonRpcResponse>({ id: 1, jsonrpc: '2.0', result: '0x' })
  assertType<JsonRpcResponse>({ id: 1, jsonrpc: '2.0', error: { code: 5000, message: 'User rejected.' } })
  // @ts-expect-error an answer carries a result or an error
  assertType<JsonRpcResponse>({ id: 1, jsonrpc: '2.0' })
  expectTypeOf(respond(client, { topic, response: { id: 1, jsonrpc: '2.0', result: 'ok' } })).toEqualTypeOf<
    Promise<void>
  >()
  expectTypeOf(getSessions(client)).toEqualTypeOf<Session[]>()
  expectTypeOf(disconnect).parameter(0).toEqualTypeOf<SignClient>()
  expectTypeOf(new SignError({ code: 5000, message: 'x' }))
    .toHaveProperty('code')
    .toEqualTypeOf<string | number>()
})
