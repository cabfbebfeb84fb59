import { waitFor } from '@pairlink/test-kit'
import { startAnvil } from '@pairlink/test-kit/anvil'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  parseEther,
  recoverMessageAddress,
  toHex,
} from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startBridge } from '../../test/server.js'
import {
  account,
  chainId,
  closeClients,
  namespaces,
  pairClients,
  pairWalletKit,
  signedBy,
} from '../../test/signClient.js'

// The SDK's own error objects (its getSdkError), written out.
const USER_REJECTED = { code: 5000, message: 'User rejected.' }
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' }

// The published @walletconnect/sign-client@2.25.0 as dapp and as wallet, through our relay on a real port.
let bridge: Awaited<ReturnType<typeof startBridge>>
let relayUrl: string
beforeAll(async () => {
  bridge = await startBridge()
  relayUrl = bridge.url.replace('http', 'ws')
})
afterEach(() => closeClients())
afterAll(() => bridge.close())

test('default: pair, propose, approve, settle; personal_sign answered with a real signature', async () => {
  const { dapp, wallet, session } = await pairClients(relayUrl)
  expect(session.namespaces.eip155?.accounts).toEqual([`${chainId}:${account.address}`])
  await waitFor(() => wallet.session.get(session.topic).acknowledged, {
    message: 'wallet session acknowledged',
  })

  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [`0x${string}`, string]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  const message = toHex('Sign in to Pairlink')
  const signature = await dapp.request<`0x${string}`>({
    topic: session.topic,
    chainId,
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(account.address)
})

describe('interop', () => {
  test('behavior: eth_sendTransaction is answered with the hash of a transaction the wallet really sent', async () => {
    // A chain whose id is the session's (eip155:1), mining each transaction at once.
    const anvil = await startAnvil({ chainId: 1, blockTime: 0 })
    try {
      const chain = defineChain({
        id: 1,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.url] } },
      })
      const signer = createWalletClient({ account, chain, transport: http(anvil.url) })
      const chainView = createPublicClient({ chain, transport: http(anvil.url) })
      const { dapp, wallet, session } = await pairClients(relayUrl)
      wallet.on('session_request', async ({ id, topic, params }) => {
        const [tx] = params.request.params as [{ to: `0x${string}`; value: `0x${string}` }]
        const result = await signer.sendTransaction({ to: tx.to, value: BigInt(tx.value) })
        await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
      })
      const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
      const hash = await dapp.request<Hash>({
        topic: session.topic,
        chainId,
        request: {
          method: 'eth_sendTransaction',
          params: [{ from: account.address, to, value: toHex(parseEther('0.5')) }],
        },
      })
      // What the chain says, not what the wallet claimed.
      const receipt = await chainView.waitForTransactionReceipt({ hash })
      expect(receipt).toMatchObject({
        status: 'success',
        from: account.address.toLowerCase(),
        to: to.toLowerCase(),
      })
      expect((await chainView.getTransaction({ hash })).value).toBe(parseEther('0.5'))
    } finally {
      await anvil.stop()
    }
  })

  test('behavior: a rejected request rejects the dapp call', async () => {
    const { dapp, wallet, session } = await pairClients(relayUrl)
    wallet.on('session_request', ({ id, topic }) => {
      wallet.respond({ topic, response: { id, jsonrpc: '2.0', error: USER_REJECTED } })
    })
    await expect(
      dapp.request({
        topic: session.topic,
        chainId,
        request: { method: 'eth_sendTransaction', params: [{}] },
      }),
    ).rejects.toMatchObject({ code: USER_REJECTED.code })
  })

  test('behavior: a request published while the wallet is offline is delivered when it reconnects', async () => {
    const { dapp, wallet, session } = await pairClients(relayUrl)
    await waitFor(() => wallet.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })
    await wallet.core.relayer.transportClose()
    const published = bridge.relay?.counts.publishes ?? 0
    wallet.on('session_request', ({ id, topic }) => {
      wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: '0x1234' } })
    })
    const answer = dapp.request({
      topic: session.topic,
      chainId,
      request: { method: 'personal_sign', params: [toHex('offline'), account.address] },
    })
    await waitFor(() => (bridge.relay?.counts.publishes ?? 0) > published, {
      message: 'request kept by the relay',
    })
    await wallet.core.relayer.transportOpen()
    expect(await answer).toBe('0x1234')
  })

  test('behavior: update, extend, ping and emit reach the other side', async () => {
    const { dapp, wallet, session } = await pairClients(relayUrl)
    await waitFor(() => wallet.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })

    const updated = new Promise((resolve) => dapp.once('session_update', resolve))
    await wallet.update({
      topic: session.topic,
      namespaces: namespaces('0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
    })
    expect(await updated).toMatchObject({ topic: session.topic })

    const extended = new Promise((resolve) => dapp.once('session_extend', resolve))
    await wallet.extend({ topic: session.topic })
    expect(await extended).toMatchObject({ topic: session.topic })

    await dapp.ping({ topic: session.topic })
    await wallet.ping({ topic: session.topic })

    const events: { name: string; data: unknown }[] = []
    dapp.on('session_event', ({ params }) => events.push(params.event))
    await wallet.emit({
      topic: session.topic,
      chainId,
      event: { name: 'accountsChanged', data: [account.address] },
    })
    await wallet.emit({ topic: session.topic, chainId, event: { name: 'chainChanged', data: 1 } })
    await waitFor(() => events.length === 2, { message: 'both events' })
    expect(events.map((event) => event.name)).toEqual(['accountsChanged', 'chainChanged'])
  })

  test('behavior: disconnect from the dapp reaches the wallet', async () => {
    const { dapp, wallet, session } = await pairClients(relayUrl)
    const deleted = new Promise((resolve) => wallet.once('session_delete', resolve))
    await dapp.disconnect({ topic: session.topic, reason: USER_DISCONNECTED })
    expect(await deleted).toMatchObject({ topic: session.topic })
  })

  test('behavior: disconnect from the wallet reaches the dapp', async () => {
    const { dapp, wallet, session } = await pairClients(relayUrl)
    await waitFor(() => wallet.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })
    const deleted = new Promise((resolve) => dapp.once('session_delete', resolve))
    await wallet.disconnect({ topic: session.topic, reason: USER_DISCONNECTED })
    expect(await deleted).toMatchObject({ topic: session.topic })
  })

  test('behavior: WalletKit as the wallet: pair, approve, personal_sign, disconnect from the wallet', async () => {
    const { dapp, wallet, session } = await pairWalletKit(relayUrl)
    expect(await signedBy(dapp, session.topic, 'WalletKit')).toBe(account.address)
    await waitFor(() => wallet.engine.signClient.session.get(session.topic).acknowledged, {
      message: 'wallet session acknowledged',
    })
    const deleted = new Promise((resolve) => dapp.once('session_delete', resolve))
    await wallet.disconnectSession({ topic: session.topic, reason: USER_DISCONNECTED })
    expect(await deleted).toMatchObject({ topic: session.topic })
  })
})
