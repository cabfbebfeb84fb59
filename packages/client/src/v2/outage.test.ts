import { waitFor } from '@pairlink/test-kit'
import { toHex } from 'viem'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { createPeers, next } from '../../test/peers.js'
import {
  account,
  closeSdkClients,
  createAnsweringWalletKit,
  createSdkDapp,
  dappMetadata,
  events,
  grant,
  methods,
  startRelay,
  walletMetadata,
} from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import { approve, connect, getPendingRequests, pair, request, respond } from './index.js'
import { getInternal, type StoredState, sendRequest } from './internal.js'

// Requests and answers over a relay really stopped for longer than a relay call may take (`requestTimeout`), then
// started again on its port: they wait in the stored outbox instead of failing with ERR_RELAY_TIMEOUT.
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, close } = createPeers(() => relay.relayUrl)
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  await close()
  await closeSdkClients()
})
afterAll(() => relay.stop())

const REQUEST_TIMEOUT = 1000
const RETRY = 200
let sockets = 0
/** Counts the sockets our clients open: each retry is `RETRY` ms after the last failed one (`random: () => 1`). */
class CountingWebSocket extends WebSocket {
  constructor(url: string) {
    super(url)
    sockets++
  }
}
const outageOptions = {
  requestTimeout: REQUEST_TIMEOUT,
  reconnect: { minDelay: RETRY, maxDelay: RETRY },
  random: () => 1,
  WebSocket: CountingWebSocket,
}
/** Waits until the relay has been down longer than `REQUEST_TIMEOUT`: enough retries, each `RETRY` ms apart. */
async function outlastRequestTimeout() {
  const from = sockets
  const retries = Math.ceil(REQUEST_TIMEOUT / RETRY) + 2
  await waitFor(() => sockets - from >= retries, { message: `${retries} failed reconnects`, timeout: 10_000 })
}

const stored = async (storage: SessionStorage) =>
  JSON.parse((await storage.get('pairlink-v2')) as string) as StoredState

test('behavior: our dapp asks while the relay is down longer than requestTimeout; the published WalletKit answers once, when it is back', async () => {
  const storage = createMemoryStorage()
  const dapp = create(dappMetadata, storage, outageOptions)
  const { wallet } = await createAnsweringWalletKit(relay.relayUrl)
  let asked = 0
  wallet.on('session_request', () => void asked++)
  const { uri, approval } = await connect(dapp, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await wallet.pair({ uri: uri as string })
  const session = await approval()

  await relay.stop()
  await waitFor(() => dapp.transportState === 'connecting', { message: 'dapp socket lost' })
  const message = toHex('sent while the relay was down')
  const signature = request<string>(dapp, {
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  let settled: unknown
  signature.then(
    () => {
      settled = 'resolved'
    },
    (error: unknown) => {
      settled = error
    },
  )
  await outlastRequestTimeout()
  expect(settled).toBeUndefined()
  expect(Object.keys((await stored(storage)).outbox)).toHaveLength(1)

  await relay.start()
  expect(await signature).toBe(await account.signMessage({ message: { raw: message } }))
  expect(asked).toBe(1)
  await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
    message: 'outbox emptied',
  })
})

test('behavior: our wallet answers while the relay is down longer than requestTimeout, then reloads; the published sign-client dapp gets the answer once it is back', async () => {
  const storage = createMemoryStorage()
  const wallet = create(walletMetadata, storage, outageOptions)
  const dapp = await createSdkDapp(relay.relayUrl)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  const proposal = next(wallet, 'session_proposal')
  await pair(wallet, { uri: uri as string })
  const approved = await approve(wallet, { id: (await proposal).id, namespaces: grant() })
  const session = await approval()
  await approved.acknowledged()

  const asked = next(wallet, 'session_request')
  const answer = dapp.request<string>({
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: ['0x01', account.address] },
  })
  const { id } = await asked
  await relay.stop()
  await waitFor(() => wallet.transportState === 'connecting', { message: 'wallet socket lost' })
  // Resolves without the relay: answered once, here and after a reload.
  await respond(wallet, { topic: session.topic, response: { id, jsonrpc: '2.0', result: '0xsigned' } })
  expect(getPendingRequests(wallet)).toEqual([])
  await outlastRequestTimeout()
  await wallet.close()
  expect(Object.keys((await stored(storage)).outbox)).toEqual([`answer:${id}`])

  const reloaded = create(walletMetadata, storage)
  await reloaded.ready
  expect(getPendingRequests(reloaded)).toEqual([])
  await relay.start()
  expect(await answer).toBe('0xsigned')
  await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
    message: 'outbox emptied',
  })
})

test('error: a request still waiting for the relay at its expiry fails as expired, and leaves the outbox', async () => {
  const storage = createMemoryStorage()
  const dapp = create(dappMetadata, storage, outageOptions)
  const { wallet } = await createAnsweringWalletKit(relay.relayUrl)
  const { uri, approval } = await connect(dapp, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await wallet.pair({ uri: uri as string })
  const session = await approval()
  await relay.stop()
  try {
    await waitFor(() => dapp.transportState === 'connecting', { message: 'dapp socket lost' })
    // `request` takes 300 s at least: its own path, with an expiry of 2 s, longer than the relay's time-out.
    const params = { request: { method: 'personal_sign', params: ['0x01'] }, chainId: 'eip155:1' }
    const expired = sendRequest(getInternal(dapp), session.topic, 'wc_sessionRequest', params, {
      ttl: 300,
      timeout: 2,
      outbox: true,
    })
    await expect(expired).rejects.toMatchObject({ code: 'ERR_REQUEST_EXPIRED' })
    await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
      message: 'outbox emptied',
    })
  } finally {
    await relay.start()
  }
})
