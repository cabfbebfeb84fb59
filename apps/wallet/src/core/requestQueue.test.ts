import { createBridgeServer } from '@pairlink/bridge'
import {
  createClient,
  createMemoryStorage,
  type DappClient,
  dappActions,
  type SessionStorage,
} from '@pairlink/client'
import { type JsonRpcRequest, RpcError, type StoredSession } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { toHex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { getDevAccount } from './accounts.js'
import { createWallet, EXPIRED_MESSAGE, type RequestOutcome, type Wallet } from './createWallet.js'
import { createPendingRequestStore, PENDING_REQUEST_MAX_AGE_MS } from './pendingRequests.js'

// Integration: a real bridge, a dapp made with our client, and the wallet closed and created again over the same
// storage, as a reloaded page or a reopened app is.
let bridge: ReturnType<typeof createBridgeServer>
let bridgeUrl: string
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  bridge = createBridgeServer()
  bridgeUrl = (await bridge.listen(0, '127.0.0.1')).url
})
afterAll(async () => {
  await bridge?.close()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const SESSION_KEY = 'test-wallet:session'
const REQUESTS_KEY = 'test-wallet:requests'
const account = getDevAccount(0)
// Signing a message never reaches the node; nothing listens here.
const RPC_URL = 'http://127.0.0.1:9'

/** A dapp connected to a wallet whose session and requests live in `storage`. */
async function connect(storage: SessionStorage): Promise<{ dapp: DappClient; wallet: Wallet }> {
  let showUri!: (uri: string) => void
  const shown = new Promise<string>((resolve) => {
    showUri = resolve
  })
  const dapp = createClient({
    bridge: bridgeUrl,
    storage: false,
    clientMeta: { name: 'Reopen test dapp', description: '', url: 'https://dapp.test', icons: [] },
    WebSocket,
    modal: { open: (uri) => showUri(uri), close: () => {} },
  }).extend(dappActions)
  cleanups.push(() => dapp.close())
  const connecting = dapp.connect({ chainId: 31337 })
  const wallet = open(storage, { uri: await shown })
  wallet.on('session_request', () => void wallet.approveSession())
  await connecting
  return { dapp, wallet }
}

/** A wallet over `storage`: pairing with `uri`, or restoring the session stored there (as the web wallet does). */
function open(storage: SessionStorage, options: { uri?: string; pendingMaxAge?: number } = {}): Wallet {
  const text = storage.get(SESSION_KEY)
  const session =
    options.uri === undefined && typeof text === 'string' ? (JSON.parse(text) as StoredSession) : undefined
  const wallet = createWallet({
    ...options,
    session,
    storage,
    storageKey: SESSION_KEY,
    requestStorageKey: REQUESTS_KEY,
    account,
    chainId: 31337,
    rpcUrl: RPC_URL,
    WebSocket,
    clientMeta: null,
  })
  cleanups.push(() => wallet.close())
  return wallet
}

/** The call requests a wallet emits, in order. */
function collect(wallet: Wallet): JsonRpcRequest[] {
  const requests: JsonRpcRequest[] = []
  wallet.on('call_request', (request) => requests.push(request))
  return requests
}

/** The stored unanswered requests' ids, as the store reads them for the wallet's session. */
async function storedIds(storage: SessionStorage, wallet: Wallet): Promise<number[]> {
  const stored = await createPendingRequestStore(storage, REQUESTS_KEY).load(wallet.client.peerId)
  return stored.map(({ request }) => request.id)
}

const sign = (dapp: DappClient, message: string) =>
  dapp.signPersonalMessage([message, account.address]).then(
    (signature) => ({ signature: signature as `0x${string}` }),
    (error: unknown) => ({ error }),
  )

describe('unanswered requests survive the wallet closing', () => {
  test('default: the reopened wallet offers the request again, and its answer reaches the waiting dapp', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    const answer = sign(dapp, 'Signed after a reload')
    const [request] = await waitFor(() => seen.length === 1 && seen)
    expect(await storedIds(storage, wallet)).toEqual([request?.id])
    wallet.close()

    const reopened = open(storage)
    const offered = collect(reopened)
    const { requests, expired } = await reopened.restored
    expect(requests).toEqual([request])
    expect(expired).toEqual([])
    expect(offered).toEqual([request])

    const outcome = await reopened.approveRequest(offered[0] as JsonRpcRequest)
    expect(outcome.status).toBe('signed')
    const result = await answer
    expect(result).toEqual({ signature: outcome.result })
    if (!('signature' in result)) throw new Error('no signature')
    expect(
      await verifyMessage({
        address: account.address,
        message: 'Signed after a reload',
        signature: result.signature,
      }),
    ).toBe(true)
    expect(await storedIds(storage, reopened)).toEqual([])
  })

  test('behavior: several requests come back in the order the dapp sent them', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    const answers = ['first', 'second', 'third'].map((message) => sign(dapp, message))
    await waitFor(() => seen.length === 3)
    wallet.close()

    const reopened = open(storage)
    const offered = collect(reopened)
    await reopened.restored
    expect(offered.map((r) => r.id)).toEqual(seen.map((r) => r.id))
    for (const request of offered) await reopened.rejectRequest(request)
    for (const answer of answers) {
      expect(await answer).toEqual({ error: expect.objectContaining({ code: 4001 }) })
    }
  })

  test('behavior: an answered request is not offered again; a later one is', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    const first = sign(dapp, 'answered')
    await waitFor(() => seen.length === 1)
    await wallet.rejectRequest(seen[0] as JsonRpcRequest)
    await first
    void sign(dapp, 'left waiting')
    await waitFor(() => seen.length === 2)
    wallet.close()

    const reopened = open(storage)
    const { requests } = await reopened.restored
    expect(requests.map((r) => r.id)).toEqual([seen[1]?.id])
  })

  test('behavior: a request that arrives while the stored ones are read waits behind them', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    void sign(dapp, 'before the reload')
    await waitFor(() => seen.length === 1)
    const { connections, queued } = bridge.bridge.metrics.counts
    wallet.close()
    await waitFor(() => bridge.bridge.metrics.counts.connections === connections - 1)
    // The dapp asks again while no wallet is open: the bridge holds it for the wallet's topic.
    void sign(dapp, 'while closed')
    await waitFor(() => bridge.bridge.metrics.counts.queued > queued, { message: 'the request held' })

    // A slow storage (a file, say): the stored requests are read only after the held one has arrived.
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const slow: SessionStorage = {
      ...storage,
      get: (key) => (key === REQUESTS_KEY ? gate.then(() => storage.get(key)) : storage.get(key)),
    }
    const reopened = open(slow)
    const offered = collect(reopened)
    await new Promise((resolve) => reopened.client.once('call_request', resolve))
    expect(offered).toEqual([])
    release()
    await waitFor(() => offered.length === 2)
    expect(offered[0]?.id).toBe(seen[0]?.id)
    expect(offered[1]?.params[0]).toBe(toHex('while closed'))
  })
})

describe('what ends the stored requests', () => {
  test('behavior: a request older than the bound is answered as expired, not offered', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    const answer = sign(dapp, 'too late')
    await waitFor(() => seen.length === 1)
    wallet.close()
    // As if the wallet had stayed closed longer than the bound: the stored time is moved back.
    const store = createPendingRequestStore(storage, REQUESTS_KEY)
    const stored = await store.load(wallet.client.peerId)
    const old = Date.now() - PENDING_REQUEST_MAX_AGE_MS - 1000
    await store.save(
      wallet.client.peerId,
      stored.map((entry) => ({ ...entry, receivedAt: old })),
    )

    const reopened = open(storage)
    const offered = collect(reopened)
    const outcomes: RequestOutcome[] = []
    reopened.on('answered', (outcome) => outcomes.push(outcome))
    const { requests, expired } = await reopened.restored
    expect(requests).toEqual([])
    expect(offered).toEqual([])
    const error = { code: -32603, message: EXPIRED_MESSAGE }
    const outcome = { id: seen[0]?.id, method: 'personal_sign', status: 'expired', error }
    expect(expired).toEqual([{ request: seen[0], outcome }])
    expect(outcomes).toEqual([outcome])
    const result = await answer
    expect(result).toEqual({ error: expect.any(RpcError) })
    expect((result as { error: RpcError }).error).toMatchObject(error)
    expect(storage.get(REQUESTS_KEY)).toBeUndefined()
  })

  test('behavior: the dapp ending the session clears its stored requests', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    void sign(dapp, 'never answered')
    await waitFor(() => seen.length === 1)
    expect(storage.get(REQUESTS_KEY)).toEqual(expect.any(String))
    const ended = new Promise((resolve) => wallet.on('disconnect', resolve))
    await dapp.killSession()
    await ended
    expect(storage.get(REQUESTS_KEY)).toBeUndefined()
  })

  test('behavior: the wallet ending the session clears its stored requests', async () => {
    const storage = createMemoryStorage()
    const { dapp, wallet } = await connect(storage)
    const seen = collect(wallet)
    void sign(dapp, 'never answered')
    await waitFor(() => seen.length === 1)
    expect(storage.get(REQUESTS_KEY)).toEqual(expect.any(String))
    await wallet.disconnect()
    expect(storage.get(REQUESTS_KEY)).toBeUndefined()
  })

  test('behavior: requests stored for another session are not offered', async () => {
    const storage = createMemoryStorage()
    const { wallet } = await connect(storage)
    await createPendingRequestStore(storage, REQUESTS_KEY).save('another-peer', [
      { request: { id: 1, jsonrpc: '2.0', method: 'personal_sign', params: [] }, receivedAt: Date.now() },
    ])
    wallet.close()
    const { requests } = await open(storage).restored
    expect(requests).toEqual([])
  })
})
