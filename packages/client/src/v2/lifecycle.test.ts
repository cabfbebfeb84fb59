import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { call, createPeers, echo, next } from '../../test/peers.js'
import { account, dappMetadata, events, methods, startRelay, walletMetadata } from '../../test/sdk.js'
import { createFileStorage, createMemoryStorage, type SessionStorage } from '../storage.js'
import { connect, getPendingRequests, getSessions, respond } from './index.js'
import { getInternal, publish, type StoredState, sendRequest } from './internal.js'

// Our dapp and our wallet together: restore, mailbox, reconnect and expiry, on the real relay.
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, paired, close } = createPeers(() => relay.relayUrl)
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(() => close())
afterAll(() => relay.stop())

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

test('behavior: a wallet kept in a file (Node) is restored by the next process', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pairlink-v2-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const path = join(dir, 'wallet.json')
  const { dapp, wallet, session } = await paired({ wallet: createFileStorage(path) }, false)
  await wallet.close()
  const restored = create(walletMetadata, createFileStorage(path))
  echo(restored)
  await restored.ready
  expect(getSessions(restored).map((s) => s.topic)).toEqual([session.topic])
  expect(await call(dapp, session.topic, 'from the file')).toBe('from the file')
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
  const states: string[] = []
  dapp.on('transport', ({ state }) => states.push(state))
  await relay.stop()
  await waitFor(() => dapp.transportState !== 'open' && wallet.transportState !== 'open', {
    message: 'sockets lost',
  })
  await relay.start()
  await waitFor(() => dapp.transportState === 'open' && wallet.transportState === 'open', {
    message: 'sockets back',
  })
  expect(dapp.stats.reconnects).toBeGreaterThanOrEqual(1)
  expect(states[0]).toBe('connecting')
  expect(states.at(-1)).toBe('open')
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
