import { sendRequiredNamespaces, waitFor } from '@pairlink/test-kit'
import { type Hex, isHash, recoverTypedDataAddress, toHex, verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import { answerRequests, next } from '../../test/peers.js'
import {
  account,
  answer,
  createSdkDapp,
  events,
  grant,
  methods,
  typedData,
  useRelay,
  walletMetadata,
} from '../../test/sdk.js'
import { createMemoryStorage } from '../storage.js'
import { approve, disconnect, emit, extend, getSessions, pair, ping, reject, update } from './index.js'

// Our wallet role against the published @walletconnect/sign-client 2.25.0 as the dapp, through our relay.
const relay = useRelay()
const createWallet = (storage = createMemoryStorage()) => relay.create(walletMetadata, storage)

/** A sign-client dapp proposes; our wallet pairs with its URI and approves eip155:1. */
async function connected(wallet = createWallet()) {
  const dapp = await createSdkDapp(relay.relayUrl)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:1', 'eip155:10'], methods, events } },
  })
  if (!uri) throw new Error('no URI')
  const proposal = next(wallet, 'session_proposal')
  await pair(wallet, { uri })
  const { id, params } = await proposal
  const approved = await approve(wallet, { id, namespaces: grant() })
  answerRequests(wallet)
  const session = await approval()
  await approved.acknowledged()
  return { dapp, wallet, session, proposal: params, uri }
}

test('default: pair with a sign-client URI, approve; both sides settle and the wallet is acknowledged', async () => {
  const { wallet, session, proposal } = await connected()
  expect(proposal.optionalNamespaces.eip155?.chains).toEqual(['eip155:1', 'eip155:10'])
  expect(proposal.proposer.metadata.name).toBe('sdk dapp')
  expect(session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  expect(session.peer.metadata.name).toBe(walletMetadata.name)
  const [own] = getSessions(wallet)
  expect(own).toMatchObject({ topic: session.topic, acknowledged: true })
})

test('behavior: rejecting a proposal rejects the dapp approval with code 5000', async () => {
  const dapp = await createSdkDapp(relay.relayUrl)
  const wallet = createWallet()
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  const refused = new Promise<void>((resolve) =>
    wallet.on('session_proposal', ({ id }) => resolve(reject(wallet, { id }))),
  )
  await pair(wallet, { uri: uri as string })
  await expect(approval()).rejects.toMatchObject({ code: 5000, message: 'User rejected.' })
  await refused
})

describe('a proposal whose required namespaces the wallet cannot grant', () => {
  test.each([
    {
      lacks: 'a chain (5100)',
      required: { eip155: { chains: ['eip155:999'], methods: ['personal_sign'], events: [] } },
      error: { code: 5100, message: 'Unsupported chains. eip155:999' },
    },
    {
      lacks: 'a method (5101)',
      required: { eip155: { chains: ['eip155:1'], methods: ['eth_getEncryptionPublicKey'], events: [] } },
      error: { code: 5101, message: 'Unsupported methods. eth_getEncryptionPublicKey' },
    },
    {
      lacks: 'a namespace (5104)',
      required: { solana: { chains: ['solana:mainnet'], methods: ['solana_signMessage'], events: [] } },
      error: { code: 5104, message: 'Unsupported namespace key. solana' },
    },
  ])(
    'error: it lacks $lacks → approve throws that error and settles nothing; reject with it reaches the sign-client dapp',
    async ({ required, error }) => {
      // The published sign-client, made to send required namespaces as SDKs before 2.19 did.
      const dapp = await createSdkDapp(relay.relayUrl)
      sendRequiredNamespaces(dapp, required)
      const wallet = createWallet()
      const { uri, approval } = await dapp.connect({
        optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
      })
      const settled = approval()
      settled.catch(() => {})
      const proposal = next(wallet, 'session_proposal')
      await pair(wallet, { uri: uri as string })
      const { id, params } = await proposal
      expect(params.requiredNamespaces).toEqual(required)
      await expect(approve(wallet, { id, namespaces: grant() })).rejects.toMatchObject(error)
      expect(getSessions(wallet)).toEqual([])
      await reject(wallet, { id, reason: error })
      await expect(settled).rejects.toMatchObject(error)
    },
  )
})

test('error: an expired pairing URI is refused with a clear error', async () => {
  const dapp = await createSdkDapp(relay.relayUrl)
  const { uri } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  const expired = (uri as string).replace(
    /expiryTimestamp=\d+/,
    `expiryTimestamp=${Math.floor(Date.now() / 1000) - 1}`,
  )
  await expect(pair(createWallet(), { uri: expired })).rejects.toMatchObject({
    name: 'ExpiredUriError',
    code: 'ERR_URI_EXPIRED',
    message: 'Pairing URI has expired',
  })
})

describe('requests', () => {
  test('behavior: personal_sign, eth_signTypedData_v4 and eth_sendTransaction answered by our wallet', async () => {
    const { dapp, session } = await connected()
    const call = <result>(method: string, params: unknown[]) =>
      dapp.request<result>({ topic: session.topic, chainId: 'eip155:1', request: { method, params } })
    const message = toHex('Sign in to Pairlink')
    const signature = await call<Hex>('personal_sign', [message, account.address])
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)

    const typed = await call<Hex>('eth_signTypedData_v4', [account.address, JSON.stringify(typedData)])
    const { domain, types, primaryType, message: mail } = typedData
    expect(
      await recoverTypedDataAddress({
        domain,
        types: { Mail: types.Mail },
        primaryType,
        message: mail,
        signature: typed,
      }),
    ).toBe(account.address)

    const tx = { from: account.address, to: mail.to, value: '0x1' }
    const hash = await call<Hex>('eth_sendTransaction', [tx])
    expect(isHash(hash)).toBe(true)
    expect(hash).toBe(await answer('eth_sendTransaction', [tx]))
  })

  test('error: our wallet refuses → the dapp request rejects with code 5000', async () => {
    const { dapp, session } = await connected()
    const refused = dapp.request({
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'personal_sign', params: ['reject', account.address] },
    })
    await expect(refused).rejects.toMatchObject({ code: 5000, message: 'User rejected.' })
  })

  test('error: a request outside the granted namespaces is answered with 5100 / 5101', async () => {
    const { dapp, session } = await connected()
    // The SDK checks its own copy of the namespaces first: widen that copy so the request reaches our wallet.
    const wide = {
      eip155: { ...grant(['eip155:1', 'eip155:137']).eip155, methods: [...methods, 'eth_sign'] },
    }
    await dapp.session.update(session.topic, { namespaces: wide })
    const call = (chainId: string, method: string) =>
      dapp.request({ topic: session.topic, chainId, request: { method, params: [] } })
    await expect(call('eip155:137', 'personal_sign')).rejects.toMatchObject({ code: 5100 })
    await expect(call('eip155:1', 'eth_sign')).rejects.toMatchObject({ code: 5101 })
  })
})

test('behavior: our wallet emits chainChanged and accountsChanged, then adds a chain with update', async () => {
  const { dapp, wallet, session } = await connected()
  const received: { name: string; data: unknown }[] = []
  dapp.on('session_event', ({ params }) => received.push(params.event))
  await emit(wallet, { topic: session.topic, chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } })
  await emit(wallet, {
    topic: session.topic,
    chainId: 'eip155:1',
    event: { name: 'accountsChanged', data: [account.address] },
  })
  await waitFor(() => received.length === 2, { message: 'both events' })
  expect(received.map(({ name }) => name)).toEqual(['chainChanged', 'accountsChanged'])
  await expect(
    emit(wallet, { topic: session.topic, chainId: 'eip155:1', event: { name: 'other', data: 0 } }),
  ).rejects.toMatchObject({ code: 5102 })

  await update(wallet, { topic: session.topic, namespaces: grant(['eip155:1', 'eip155:10']) })
  expect(dapp.session.get(session.topic).namespaces.eip155?.accounts).toHaveLength(2)
})

test('behavior: chain switch — the dapp asks, our wallet grants the chain, answers and emits chainChanged', async () => {
  const { dapp, session } = await connected()
  const changed = new Promise<unknown>((resolve) => dapp.on('session_event', ({ params }) => resolve(params)))
  const switched = await dapp.request({
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
  })
  expect(switched).toBeNull()
  expect(await changed).toEqual({ chainId: 'eip155:10', event: { name: 'chainChanged', data: 10 } })
  const message = toHex('on Optimism')
  const signature = await dapp.request<Hex>({
    topic: session.topic,
    chainId: 'eip155:10',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
})

test('behavior: ping and extend both ways', async () => {
  const { dapp, wallet, session } = await connected()
  await ping(wallet, { topic: session.topic })
  const pinged = next(wallet, 'session_ping')
  await dapp.ping({ topic: session.topic })
  expect((await pinged).topic).toBe(session.topic)

  const expiry = await extend(wallet, { topic: session.topic })
  await waitFor(() => dapp.session.get(session.topic).expiry === expiry, { message: 'dapp extended' })
  const extended = next(wallet, 'session_extend')
  await dapp.extend({ topic: session.topic })
  expect((await extended).topic).toBe(session.topic)
})

describe('disconnect', () => {
  test('behavior: our wallet disconnects; the dapp hears session_delete', async () => {
    const { dapp, wallet, session } = await connected()
    const deleted = new Promise<{ topic: string }>((resolve) => dapp.on('session_delete', resolve))
    await disconnect(wallet, { topic: session.topic })
    expect((await deleted).topic).toBe(session.topic)
    expect(getSessions(wallet)).toEqual([])
  })

  test('behavior: the dapp disconnects; our wallet emits session_delete', async () => {
    const { dapp, wallet, session } = await connected()
    const deleted = next(wallet, 'session_delete')
    await dapp.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect((await deleted).topic).toBe(session.topic)
    expect(getSessions(wallet)).toEqual([])
  })
})

test('behavior: a new wallet client on the same storage restores the session and answers', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, session } = await connected(createWallet(storage))
  await wallet.close()
  const restored = createWallet(storage)
  answerRequests(restored)
  await restored.ready
  expect(getSessions(restored).map((s) => s.topic)).toEqual([session.topic])
  const message = toHex('after a reload')
  const signature = await dapp.request<Hex>({
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
})
