import { encryptEnvelope } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { account, dappMetadata, events, grant, methods, startRelay, walletMetadata } from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import {
  approve,
  connect,
  createSignClient,
  getPendingRequests,
  getSessions,
  pair,
  request,
  respond,
  type SignClient,
  type SignClientEvents,
} from './index.js'
import { getInternal, publish, type StoredState, sendRequest } from './internal.js'

// Our dapp and our wallet together: restore, expiry, reconnect and bad input, on the real relay.
let relay: Awaited<ReturnType<typeof startRelay>>
const clients: SignClient[] = []
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
})
afterAll(() => relay.stop())

// Short backoff: a restarted relay is back within a few ms.
const reconnect = { minDelay: 20, maxDelay: 200 }
const create = (metadata: typeof dappMetadata, storage: SessionStorage = createMemoryStorage()) => {
  const client = createSignClient({ relayUrl: relay.relayUrl, metadata, storage, reconnect })
  clients.push(client)
  return client
}
const next = <event extends keyof SignClientEvents>(client: SignClient, event: event) =>
  new Promise<SignClientEvents[event]>((resolve) => client.once(event, resolve))

/** The wallet answers `eth_chainId`-like test calls with their first param. */
const echo = (wallet: SignClient) =>
  wallet.on('session_request', ({ id, topic, params }) => {
    const [value] = params.request.params as [string]
    respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: value } }).catch(() => {})
  })

async function paired(storages: { dapp?: SessionStorage; wallet?: SessionStorage } = {}, answers = true) {
  const dapp = create(dappMetadata, storages.dapp)
  const wallet = create(walletMetadata, storages.wallet)
  const { uri, approval } = await connect(dapp, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  wallet.on('session_proposal', ({ id }) => void approve(wallet, { id, namespaces: grant() }))
  await pair(wallet, { uri: uri as string })
  const session = await approval()
  await waitFor(() => getSessions(wallet)[0]?.acknowledged, { message: 'wallet acknowledged' })
  if (answers) echo(wallet)
  return { dapp, wallet, session }
}

const call = (dapp: SignClient, topic: string, value: string) =>
  request<string>(dapp, { topic, chainId: 'eip155:1', request: { method: 'personal_sign', params: [value] } })

/** Rewrites the state kept in `storage` (as a crash or a long pause would leave it). */
async function edit(storage: SessionStorage, change: (state: StoredState) => void) {
  const state = JSON.parse((await storage.get('pairlink-v2')) as string) as StoredState
  change(state)
  await storage.set('pairlink-v2', JSON.stringify(state))
}

test('default: our dapp and our wallet pair and exchange a request', async () => {
  const { dapp, wallet, session } = await paired()
  expect(session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  expect(await call(dapp, session.topic, 'hello')).toBe('hello')
  // Each message once: the wallet's first subscribe (opening the socket) is not doubled by the one on open.
  expect(wallet.stats).toMatchObject({ received: 3, dropped: 0, ignored: 0 })
  expect(dapp.stats).toMatchObject({ received: 3, dropped: 0, ignored: 0 })
})

test('behavior: a request sent while the wallet is closed is delivered from the mailbox when it is back', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, session } = await paired({ wallet: storage })
  await wallet.close()
  const before = relay.counts().publishes ?? 0
  const answer = call(dapp, session.topic, 'while away')
  // The relay has the request before the wallet comes back.
  await waitFor(() => (relay.counts().publishes ?? 0) > before, { message: 'request published' })
  const restored = create(walletMetadata, storage)
  echo(restored)
  expect(await answer).toBe('while away')
  expect(restored.stats).toMatchObject({ received: 1, dropped: 0 })
})

test('behavior: a request received but unanswered when the wallet closed is pending in the restored one', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, session } = await paired({ wallet: storage }, false)
  const received = next(wallet, 'session_request')
  const answer = call(dapp, session.topic, 'answer me later')
  const { id } = await received
  await wallet.close()
  const restored = create(walletMetadata, storage)
  await restored.ready
  const [pending] = getPendingRequests(restored)
  expect(pending).toMatchObject({ id, topic: session.topic, params: { chainId: 'eip155:1' } })
  await respond(restored, { topic: session.topic, response: { id, jsonrpc: '2.0', result: 'later' } })
  expect(await answer).toBe('later')
  expect(getPendingRequests(restored)).toEqual([])
})

test('behavior: both clients reconnect after the relay restarts, subscribe again, and go on', async () => {
  const { dapp, wallet, session } = await paired()
  await relay.stop()
  await waitFor(() => dapp.transportState !== 'open' && wallet.transportState !== 'open', {
    message: 'sockets lost',
  })
  await relay.start()
  await waitFor(() => dapp.transportState === 'open' && wallet.transportState === 'open', {
    message: 'sockets back',
  })
  expect(dapp.stats.reconnects).toBeGreaterThanOrEqual(1)
  expect(wallet.stats.reconnects).toBeGreaterThanOrEqual(1)
  // The restarted relay kept nothing: the request arrives only because the wallet subscribed again.
  expect(await call(dapp, session.topic, 'after restart')).toBe('after restart')
})

describe('expiry', () => {
  test('behavior: a session past its expiry is removed on restore with session_expire', async () => {
    const storage = createMemoryStorage()
    const { dapp, session } = await paired({ dapp: storage })
    await dapp.close()
    await edit(storage, (state) => {
      ;(state.sessions[session.topic] as { expiry: number }).expiry = Math.floor(Date.now() / 1000) - 1
    })
    const restored = create(dappMetadata, storage)
    const expired = next(restored, 'session_expire')
    expect((await expired).topic).toBe(session.topic)
    expect(getSessions(restored)).toEqual([])
  })

  test('behavior: a live session expires when its time comes', async () => {
    const storage = createMemoryStorage()
    const { dapp, session } = await paired({ dapp: storage })
    await dapp.close()
    await edit(storage, (state) => {
      ;(state.sessions[session.topic] as { expiry: number }).expiry = Math.floor(Date.now() / 1000) + 1
    })
    const restored = create(dappMetadata, storage)
    await restored.ready
    expect(getSessions(restored)).toHaveLength(1)
    expect((await next(restored, 'session_expire')).topic).toBe(session.topic)
    expect(getSessions(restored)).toEqual([])
  })

  test('behavior: the wallet drops a request past its expiryTimestamp (session_request_expire); respond refuses it', async () => {
    const { dapp, wallet, session } = await paired({}, false)
    const id = Date.now() * 1000
    const params = {
      request: {
        method: 'personal_sign',
        params: ['late'],
        expiryTimestamp: Math.floor(Date.now() / 1000) + 1,
      },
      chainId: 'eip155:1',
    }
    const received = next(wallet, 'session_request')
    const expired = next(wallet, 'session_request_expire')
    // The dapp's own request() allows 300 s at least: the seam below it sends a shorter one.
    const method = 'wc_sessionRequest'
    await publish(getInternal(dapp), session.topic, { id, jsonrpc: '2.0', method, params }, method)
    expect((await received).id).toBe(id)
    expect((await expired).id).toBe(id)
    const late = respond(wallet, { topic: session.topic, response: { id, jsonrpc: '2.0', result: 'late' } })
    await expect(late).rejects.toMatchObject({ code: 'ERR_REQUEST_UNKNOWN' })
  })

  test('behavior: a request the wallet leaves unanswered rejects when its time is up', async () => {
    const { dapp, session } = await paired({}, false)
    const params = { request: { method: 'personal_sign', params: ['x'] }, chainId: 'eip155:1' }
    const unanswered = sendRequest(getInternal(dapp), session.topic, 'wc_sessionRequest', params, {
      timeout: 0.2,
    })
    await expect(unanswered).rejects.toMatchObject({ code: 'ERR_REQUEST_EXPIRED' })
  })

  test('behavior: an unanswered proposal past its expiry rejects approval() and emits proposal_expire', async () => {
    const dapp = create(dappMetadata)
    const { approval } = await connect(dapp, {
      optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
    })
    const internal = getInternal(dapp)
    const [proposal] = Object.values(internal.state.proposed)
    if (!proposal) throw new Error('no proposal')
    proposal.expiryTimestamp = Math.floor(Date.now() / 1000)
    internal.onChange()
    expect((await next(dapp, 'proposal_expire')).id).toBe(proposal.id)
    await expect(approval()).rejects.toMatchObject({
      code: 'ERR_PROPOSAL_EXPIRED',
      message: 'Proposal expired',
    })
  })
})

test('behavior: undecryptable and non-JSON-RPC messages are counted and dropped, never thrown', async () => {
  const { dapp, wallet, session } = await paired()
  const symKey = getInternal(wallet).state.keys[session.topic] as string
  const intruder = create(dappMetadata)
  const send = (message: string) =>
    getInternal(intruder).relay.request('irn_publish', { topic: session.topic, message, ttl: 300, tag: 1108 })
  await send(encryptEnvelope({ symKey: 'ab'.repeat(32), message: '{}' }))
  await send(encryptEnvelope({ symKey, message: 'not json-rpc' }))
  await send(encryptEnvelope({ symKey, message: JSON.stringify({ jsonrpc: '2.0', id: 'x', result: 1 }) }))
  await send('not base64!')
  await waitFor(() => wallet.stats.dropped === 4, { message: 'four dropped' })
  expect(await call(dapp, session.topic, 'still fine')).toBe('still fine')
})

test('behavior: a push seen before is acked and ignored, not handled twice', async () => {
  const { wallet, session } = await paired({}, false)
  const symKey = getInternal(wallet).state.keys[session.topic] as string
  const request = {
    id: Date.now() * 1000,
    jsonrpc: '2.0',
    method: 'wc_sessionRequest',
    params: { request: { method: 'personal_sign', params: ['once'] }, chainId: 'eip155:1' },
  }
  const message = encryptEnvelope({ symKey, message: JSON.stringify(request) })
  const intruder = create(dappMetadata)
  const requests: number[] = []
  wallet.on('session_request', ({ id }) => requests.push(id))
  const { ignored } = wallet.stats
  for (let i = 0; i < 2; i++)
    await getInternal(intruder).relay.request('irn_publish', {
      topic: session.topic,
      message,
      ttl: 300,
      tag: 1108,
    })
  await waitFor(() => wallet.stats.ignored === ignored + 1, { message: 'the second push ignored' })
  expect(requests).toEqual([request.id])
})

test('error: a relay that never answers makes the call fail after requestTimeout', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  const client = createSignClient({
    relayUrl: `ws://127.0.0.1:${port}`,
    metadata: dappMetadata,
    storage: false,
    requestTimeout: 100,
  })
  clients.push(client)
  const proposal = connect(client, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await expect(proposal).rejects.toMatchObject({ name: 'RelayError', code: 'ERR_RELAY_TIMEOUT' })
  await client.close()
  await new Promise((resolve) => server.close(resolve))
})
