import { waitFor } from '@pairlink/test-kit'
import { type Hex, isHash, recoverTypedDataAddress, toHex, verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import { next } from '../../test/peers.js'
import {
  account,
  answer,
  createAnsweringWalletKit,
  dappMetadata,
  events,
  grant,
  methods,
  typedData,
  useRelay,
} from '../../test/sdk.js'
import { createMemoryStorage } from '../storage.js'
import {
  connect,
  disconnect,
  extend,
  getSession,
  getSessions,
  ping,
  request,
  type SignClientEvents,
  SignError,
} from './index.js'

// Our dapp role against the published WalletKit 1.6.0 (core 2.25.0) as the wallet, through our relay on a real port.
const relay = useRelay()
const dapp = (storage = createMemoryStorage()) => relay.create(dappMetadata, storage)

/** Our dapp connects; a WalletKit wallet (made after the proposal, as a phone scanning it) approves eip155:1. */
async function connected(client = dapp()) {
  const shown = next(client, 'display_uri')
  const { uri, approval } = await connect(client, {
    optionalNamespaces: { eip155: { chains: ['eip155:1', 'eip155:10'], methods, events } },
  })
  if (!uri) throw new Error('no URI')
  expect((await shown).uri).toBe(uri)
  const { wallet, proposal } = await createAnsweringWalletKit(relay.relayUrl)
  await wallet.pair({ uri })
  const session = await approval()
  return { client, wallet, session, proposal: await proposal, uri }
}

test('default: connect with optional eip155 namespaces; the WalletKit wallet approves and the session settles', async () => {
  const { wallet, session, proposal, uri } = await connected()
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?expiryTimestamp=\d+&relay-protocol=irn&symKey=[0-9a-f]{64}$/)
  expect(proposal.optionalNamespaces).toEqual({
    eip155: { chains: ['eip155:1', 'eip155:10'], methods, events },
  })
  expect(session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  expect(session.peer.metadata.name).toBe('walletkit')
  expect(session.acknowledged).toBe(true)
  // The wallet's session turns acknowledged only when our answer to its settlement (tag 1103) reached it.
  await waitFor(() => wallet.getActiveSessions()[session.topic]?.acknowledged, {
    message: 'wallet acknowledged',
  })
})

describe('requests', () => {
  test('behavior: personal_sign and eth_signTypedData_v4 are answered with signatures of the wallet account', async () => {
    const { client, session } = await connected()
    const message = toHex('Sign in to Pairlink')
    const signature = await request<Hex>(client, {
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'personal_sign', params: [message, account.address] },
    })
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)

    const typed = await request<Hex>(client, {
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'eth_signTypedData_v4', params: [account.address, JSON.stringify(typedData)] },
    })
    const { domain, types, primaryType, message: mail } = typedData
    const signer = await recoverTypedDataAddress({
      domain,
      types: { Mail: types.Mail },
      primaryType,
      message: mail,
      signature: typed,
    })
    expect(signer).toBe(account.address)
  })

  test('behavior: eth_sendTransaction resolves with the hash the wallet gives', async () => {
    const { client, session } = await connected()
    const tx = { from: account.address, to: typedData.message.to, value: '0x1' }
    const hash = await request<Hex>(client, {
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'eth_sendTransaction', params: [tx] },
    })
    expect(isHash(hash)).toBe(true)
    expect(hash).toBe(await answer('eth_sendTransaction', [tx]))
  })

  test('error: the wallet rejects → SignError with code 5000', async () => {
    const { client, session } = await connected()
    const error = await request(client, {
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'personal_sign', params: ['reject', account.address] },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SignError)
    expect(error).toMatchObject({ code: 5000, message: 'User rejected.' })
  })

  test('error: a chain or method outside the session is refused before anything is sent', async () => {
    const { client, session } = await connected()
    const call = (chainId: string, method: string) =>
      request(client, { topic: session.topic, chainId, request: { method, params: [] } })
    await expect(call('eip155:137', 'personal_sign')).rejects.toMatchObject({ code: 5100 })
    await expect(call('eip155:1', 'eth_sign')).rejects.toMatchObject({ code: 5101 })
  })
})

test('behavior: the wallet emits chainChanged and accountsChanged, then updates the session with a chain', async () => {
  const { client, wallet, session } = await connected()
  const received: SignClientEvents['session_event'][] = []
  client.on('session_event', (event) => received.push(event))
  await wallet.emitSessionEvent({
    topic: session.topic,
    chainId: 'eip155:1',
    event: { name: 'chainChanged', data: 1 },
  })
  await wallet.emitSessionEvent({
    topic: session.topic,
    chainId: 'eip155:1',
    event: { name: 'accountsChanged', data: [account.address] },
  })
  await waitFor(() => received.length === 2, { message: 'both events' })
  expect(received.map(({ params }) => params.event)).toEqual([
    { name: 'chainChanged', data: 1 },
    { name: 'accountsChanged', data: [account.address] },
  ])

  const updated = next(client, 'session_update')
  await wallet.updateSession({ topic: session.topic, namespaces: grant(['eip155:1', 'eip155:10']) })
  expect((await updated).params.namespaces.eip155?.chains).toEqual(['eip155:1', 'eip155:10'])
  expect(getSession(client, { topic: session.topic })?.namespaces.eip155?.accounts).toHaveLength(2)
})

test('behavior: chain switch — wallet_switchEthereumChain, then the new chain is granted, announced and usable', async () => {
  const { client, session } = await connected()
  const changed = next(client, 'session_event')
  const switched = await request(client, {
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
  })
  expect(switched).toBeNull()
  expect((await changed).params).toEqual({ chainId: 'eip155:10', event: { name: 'chainChanged', data: 10 } })
  const message = toHex('on Optimism')
  const signature = await request<Hex>(client, {
    topic: session.topic,
    chainId: 'eip155:10',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
})

test('behavior: ping and extend are acknowledged by the wallet; its extend reaches the dapp', async () => {
  const { client, wallet, session } = await connected()
  await ping(client, { topic: session.topic })
  const expiry = await extend(client, { topic: session.topic })
  expect(expiry).toBeGreaterThanOrEqual(session.expiry)
  await waitFor(() => wallet.getActiveSessions()[session.topic]?.expiry === expiry, {
    message: 'wallet extended',
  })

  const extended = next(client, 'session_extend')
  await wallet.extendSession({ topic: session.topic })
  expect((await extended).topic).toBe(session.topic)
})

describe('disconnect', () => {
  test('behavior: the dapp disconnects; the wallet hears session_delete', async () => {
    const { client, wallet, session } = await connected()
    const deleted = new Promise<{ topic: string }>((resolve) => wallet.on('session_delete', resolve))
    await disconnect(client, { topic: session.topic })
    expect((await deleted).topic).toBe(session.topic)
    expect(getSessions(client)).toEqual([])
  })

  test('behavior: the wallet disconnects; the dapp emits session_delete and forgets the session', async () => {
    const { client, wallet, session } = await connected()
    const deleted = next(client, 'session_delete')
    await wallet.disconnectSession({
      topic: session.topic,
      reason: { code: 6000, message: 'User disconnected.' },
    })
    expect((await deleted).topic).toBe(session.topic)
    expect(getSessions(client)).toEqual([])
  })
})

test('behavior: a new client on the same storage restores the session and can request', async () => {
  const storage = createMemoryStorage()
  const { client, session } = await connected(dapp(storage))
  const clientId = client.clientId
  await client.close()

  const restored = dapp(storage)
  await restored.ready
  expect(restored.clientId).toBe(clientId)
  expect(getSessions(restored).map((s) => s.topic)).toEqual([session.topic])
  const message = toHex('after a reload')
  const signature = await request<Hex>(restored, {
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
})
