import { createMemoryStorage, type SessionStorage } from '@pairlink/client'
import { MAIL_TYPED_DATA, RECIPIENT, waitFor } from '@pairlink/test-kit'
import { ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import { type Hex, recoverTypedDataAddress, toHex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { account, grant, startV2Stack } from '../test/walletKit.js'
import { createProvider, type Provider } from './createProvider.js'
import { createV2Client, type V2Client } from './v2Client.js'

// Our provider over a WalletConnect v2 session, the published WalletKit as the wallet, our relay and anvil, all real.
let stack: Awaited<ReturnType<typeof startV2Stack>>
const clients: V2Client[] = []
beforeAll(async () => {
  stack = await startV2Stack()
})
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  stack.behavior.proposal = [ANVIL_CHAIN_ID, 1]
  stack.behavior.rejectRequests = false
  stack.scan = true
  stack.shown.length = 0
})
afterAll(() => stack.stop())

const ANVIL = `0x${ANVIL_CHAIN_ID.toString(16)}`

function v2Provider(storage: SessionStorage = createMemoryStorage(), pairingExpiry?: number) {
  const client = createV2Client({
    relayUrl: stack.relayUrl,
    modal: stack.modal,
    storage,
    chains: [1, 10],
    pairingExpiry,
  })
  clients.push(client)
  const provider = createProvider({
    client,
    chainId: ANVIL_CHAIN_ID,
    rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url, 1: stack.anvil.url, 10: stack.anvil.url },
  })
  const events: [string, unknown][] = []
  for (const name of ['connect', 'disconnect', 'chainChanged', 'accountsChanged'] as const)
    provider.on(name, (payload: unknown) => events.push([name, payload]))
  return { provider, client, events, storage }
}

async function connected(storage?: SessionStorage) {
  const setup = v2Provider(storage)
  expect(await setup.provider.enable()).toEqual([account.address])
  return setup
}

const failure = (provider: Provider, method: string, params?: unknown[]) =>
  provider.request({ method, params }).then(
    () => undefined,
    (error: { code: number; message: string }) => error,
  )

test('default: enable shows a v2 URI, WalletKit approves, the session answers accounts and chain', async () => {
  const { provider, client, events } = await connected()
  expect(stack.shown).toHaveLength(1)
  expect(stack.shown[0]?.uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  expect(typeof stack.shown[0]?.options.onExpired).toBe('function')
  expect(stack.closes).toBeGreaterThan(0)
  expect(client.version).toBe(2)
  expect(client.peerMeta?.name).toBe('walletkit')
  expect(events).toEqual([
    ['connect', { chainId: ANVIL }],
    ['accountsChanged', [account.address]],
  ])
  expect(await provider.request({ method: 'eth_chainId' })).toBe(ANVIL)
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([account.address])
  // The proposal asked for the connect chain first, then the app's other chains.
  const [session] = Object.values(stack.wallet.getActiveSessions())
  expect(session?.optionalNamespaces.eip155?.chains).toEqual([
    `eip155:${ANVIL_CHAIN_ID}`,
    'eip155:1',
    'eip155:10',
  ])
})

describe('requests', () => {
  test('behavior: personal_sign and eth_signTypedData_v4 are signed by the wallet account (checked with viem)', async () => {
    const { provider } = await connected()
    const message = toHex('Sign in to Pairlink')
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [message, account.address],
    })) as Hex
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)

    const typed = (await provider.request({
      method: 'eth_signTypedData_v4',
      params: [account.address, JSON.stringify(MAIL_TYPED_DATA)],
    })) as Hex
    const { domain, types, primaryType, message: mail } = MAIL_TYPED_DATA
    const signer = await recoverTypedDataAddress({
      domain,
      types: { Person: types.Person, Mail: types.Mail },
      primaryType,
      message: mail,
      signature: typed,
    })
    expect(signer).toBe(account.address)
  })

  test('behavior: eth_sendTransaction is sent by the wallet on anvil; the receipt is read over HTTP', async () => {
    const { provider } = await connected()
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: RECIPIENT, value: '0x2386f26fc10000' }],
    })) as Hex
    const receipt = await waitFor(
      async () =>
        (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
          status: string
          to: string
        } | null,
      { message: 'receipt' },
    )
    expect(receipt).toMatchObject({ status: '0x1', to: RECIPIENT.toLowerCase() })
  })

  test('error: the wallet refuses a request → 4001', async () => {
    const { provider } = await connected()
    stack.behavior.rejectRequests = true
    const error = await failure(provider, 'personal_sign', [toHex('no'), account.address])
    expect(error).toMatchObject({ code: 4001, message: 'User denied the request: User rejected.' })
  })

  test('error: a method outside the session → 4200 naming it', async () => {
    const { provider } = await connected()
    const error = await failure(provider, 'eth_signTransaction', [{ to: RECIPIENT }])
    expect(error).toMatchObject({ code: 4200, message: 'Unsupported methods. eth_signTransaction' })
  })
})

describe('connect', () => {
  test('error: the wallet rejects the session → 4001 with its message', async () => {
    stack.behavior.proposal = 'reject'
    const { provider } = v2Provider()
    expect(await provider.enable().catch((e) => e)).toMatchObject({ code: 4001, message: 'User rejected.' })
    expect(provider.connected).toBe(false)
  })

  test('error: the person closes the modal → 4001 User closed modal', async () => {
    stack.scan = false
    const { provider } = v2Provider()
    const enabled = provider.enable().catch((e) => e)
    await waitFor(() => stack.shown.length === 1)
    stack.closeModal()
    expect(await enabled).toMatchObject({ code: 4001, message: 'User closed modal' })
  })

  test('behavior: closing the modal means no — WalletKit approving the closed code later is refused; nothing connects, also after a reload', async () => {
    stack.scan = false
    const { provider, events, storage } = v2Provider()
    const enabled = provider.enable().catch((e) => e)
    await waitFor(() => stack.shown.length === 1)
    stack.closeModal()
    expect(await enabled).toMatchObject({ code: 4001, message: 'User closed modal' })
    await stack.scanLast()
    // Answered by the wallet, then forgotten: the dapp kept the abandoned pairing only to refuse it.
    await waitFor(
      async () => {
        const state = JSON.parse((await storage.get('pairlink-v2')) ?? '{}')
        return (
          Object.keys(state.proposed ?? {}).length === 0 &&
          Object.keys(state.authenticating ?? {}).length === 0
        )
      },
      { message: 'the abandoned pairing answered and forgotten', timeout: 10_000 },
    )
    // The wallet's session is refused (its settlement answered 5000, or deleted with 5000): WalletKit drops it.
    await waitFor(() => Object.keys(stack.wallet.getActiveSessions()).length === 0, {
      message: 'WalletKit dropped the refused session',
    })
    expect(provider.connected).toBe(false)
    expect(events.filter(([name]) => name === 'connect')).toEqual([])
    const reloaded = v2Provider(storage)
    await reloaded.client.ready
    expect(reloaded.provider.connected).toBe(false)
  })

  test('behavior: the modal asks for a fresh code (onExpired) → a new pairing URI in the same modal', async () => {
    stack.scan = false
    const { provider } = v2Provider()
    const enabled = provider.enable()
    await waitFor(() => stack.shown.length === 1)
    const closes = stack.closes
    await stack.shown[0]?.options.onExpired?.()
    expect(stack.shown).toHaveLength(2)
    expect(stack.shown[1]?.uri).not.toBe(stack.shown[0]?.uri)
    expect(stack.closes).toBe(closes)
    stack.scan = true
    await stack.scanLast()
    expect(await enabled).toEqual([account.address])
  })

  test('behavior: a pairing URI that expires unscanned is replaced by a fresh one; scanning that one connects', async () => {
    stack.scan = false
    const { provider } = v2Provider(createMemoryStorage(), 2)
    const enabled = provider.enable()
    await waitFor(() => stack.shown.length === 2, { timeout: 10_000, message: 'a fresh URI' })
    const [first, second] = stack.shown.map(({ uri }) =>
      uri.match(/^wc:([0-9a-f]{64})@2\?.*expiryTimestamp=(\d+)/),
    )
    expect(second?.[1]).not.toBe(first?.[1])
    expect(Number(second?.[2])).toBeGreaterThan(Date.now() / 1000)
    await stack.scanLast()
    expect(await enabled).toEqual([account.address])
  })
})

describe('chains and events', () => {
  test('behavior: wallet_switchEthereumChain to a chain of the session switches locally', async () => {
    const { provider, events } = await connected()
    events.length = 0
    const requests: unknown[] = []
    stack.wallet.on('session_request', (request) => requests.push(request))
    expect(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    ).toBe(null)
    expect(events).toEqual([['chainChanged', '0x1']])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    // Requests now go out on the new chain.
    await provider.request({ method: 'personal_sign', params: [toHex('on 1'), account.address] })
    expect(requests).toMatchObject([
      { params: { chainId: 'eip155:1', request: { method: 'personal_sign' } } },
    ])
  })

  test('error: wallet_switchEthereumChain to a chain outside the session → 4902 naming the chains', async () => {
    const { provider } = await connected()
    const error = await failure(provider, 'wallet_switchEthereumChain', [{ chainId: '0xa' }])
    expect(error).toMatchObject({
      code: 4902,
      message: `Chain 10 (eip155:10) is not in this session: the wallet approved eip155:${ANVIL_CHAIN_ID}, eip155:1. Disconnect and connect again to approve it.`,
      data: { approvedChains: [`eip155:${ANVIL_CHAIN_ID}`, 'eip155:1'] },
    })
    expect(await provider.request({ method: 'eth_chainId' })).toBe(ANVIL)
  })

  test('behavior: the wallet’s chainChanged and accountsChanged events reach the provider', async () => {
    const { provider, events } = await connected()
    events.length = 0
    const [topic] = Object.keys(stack.wallet.getActiveSessions())
    if (!topic) throw new Error('no session')
    await stack.wallet.emitSessionEvent({
      topic,
      event: { name: 'chainChanged', data: 1 },
      chainId: 'eip155:1',
    })
    await waitFor(() => provider.chainId === 1)
    const other = RECIPIENT
    await stack.wallet.emitSessionEvent({
      topic,
      event: { name: 'accountsChanged', data: [`eip155:1:${other}`] },
      chainId: 'eip155:1',
    })
    await waitFor(() => provider.accounts[0] === other)
    expect(events).toEqual([
      ['chainChanged', '0x1'],
      ['accountsChanged', [other]],
    ])
  })

  test('behavior: a session update adding a chain lets the dapp switch to it', async () => {
    const { provider } = await connected()
    const [topic] = Object.keys(stack.wallet.getActiveSessions())
    if (!topic) throw new Error('no session')
    const { acknowledged } = await stack.wallet.updateSession({
      topic,
      namespaces: grant([ANVIL_CHAIN_ID, 1, 10]),
    })
    await acknowledged()
    await waitFor(async () =>
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }).then(
        () => true,
        () => false,
      ),
    )
    expect(provider.chainId).toBe(10)
  })
})

describe('disconnect and restore', () => {
  test('behavior: disconnect from the dapp ends the session at the wallet', async () => {
    const { provider, events } = await connected()
    const [topic] = Object.keys(stack.wallet.getActiveSessions())
    const deleted = new Promise((resolve) => stack.wallet.on('session_delete', resolve))
    await provider.disconnect()
    await deleted
    expect(Object.keys(stack.wallet.getActiveSessions())).not.toContain(topic)
    expect(events.at(-1)).toMatchObject(['disconnect', { code: 4900 }])
    expect(await failure(provider, 'personal_sign', [toHex('x'), account.address])).toMatchObject({
      code: 4900,
    })
  })

  test('behavior: disconnect from the wallet reaches the provider as disconnect (4900)', async () => {
    const { provider, events } = await connected()
    const [topic] = Object.keys(stack.wallet.getActiveSessions())
    if (!topic) throw new Error('no session')
    await stack.wallet.disconnectSession({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    await waitFor(() => !provider.connected)
    expect(events.slice(-2)).toEqual([
      ['accountsChanged', []],
      ['disconnect', expect.objectContaining({ code: 4900, data: { reason: 'Session disconnected' } })],
    ])
  })

  test('behavior: a new page on the same storage restores the session and its chain, and can sign', async () => {
    const storage = createMemoryStorage()
    const first = await connected(storage)
    await first.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })
    await first.client.close()

    const { provider, client, events } = v2Provider(storage)
    await client.ready
    await waitFor(() => provider.connected)
    expect(events).toEqual([
      ['connect', { chainId: '0x1' }],
      ['chainChanged', '0x1'],
      ['accountsChanged', [account.address]],
    ])
    expect(stack.shown).toHaveLength(1)
    const message = toHex('restored')
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [message, account.address],
    })) as Hex
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
  })
})

test('behavior: each pairing URI the modal is given is also a display_uri event; once() hears the first only', async () => {
  const provider = createProvider({
    relayUrl: stack.relayUrl,
    modal: stack.modal,
    clientParameters: { storage: createMemoryStorage() },
    chainId: ANVIL_CHAIN_ID,
    rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
  })
  clients.push(provider.client as V2Client)
  const every: string[] = []
  const first: string[] = []
  provider.on('display_uri', (uri) => every.push(uri))
  provider.once('display_uri', (uri) => first.push(uri))
  await provider.enable()
  await provider.disconnect()
  await provider.enable()
  expect(every).toEqual(stack.shown.map(({ uri }) => uri))
  expect(every).toHaveLength(2)
  expect(first).toEqual([every[0]])
})
