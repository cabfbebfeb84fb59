import { waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID, type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createV1, type V1Connector } from '../../client/test/v1.js'
import { startBridge } from '../test/bridge.js'
import { grant, startV2Stack } from '../test/walletKit.js'
import { createProvider, type Provider } from './createProvider.js'
import { createV2Client } from './v2Client.js'

// One chainChanged per actual change of chain, whichever of the wallet's messages (its answer, its session update, its
// chainChanged session event) come and in whatever order; none for the chain the provider is on. The published SDKs
// as the wallets (v1: @walletconnect/client 1.8.0; v2: WalletKit 1.6.0), our bridge/relay and anvil, all real.

/** Each chainChanged the provider emits, and (to know the wallet's messages all landed) each session update. */
function record(provider: Provider) {
  const chainChanged: string[] = []
  provider.on('chainChanged', (chainId) => chainChanged.push(chainId))
  return chainChanged
}

describe('v1: the wallet answers the switch and sends its session update', () => {
  let anvil: Anvil
  let bridge: Awaited<ReturnType<typeof startBridge>>
  const wallets: V1Connector[] = []
  beforeAll(async () => {
    ;[anvil, bridge] = await Promise.all([startAnvil({ accountFactory: false }), startBridge()])
  })
  afterEach(() => {
    for (const wallet of wallets.splice(0)) wallet.transportClose()
  })
  afterAll(async () => {
    await Promise.all([anvil?.stop(), bridge?.stop()])
  })

  /** A v1 provider connected to a published v1 wallet that handles switches with `onSwitch`. */
  async function connected(onSwitch: (wallet: V1Connector, id: number, chainId: number) => void) {
    const updates: number[] = []
    const provider = createProvider({
      bridge: bridge.url,
      modal: {
        open(uri) {
          const wallet = createV1({
            uri,
            clientMeta: { name: 'v1 wallet', description: '', url: 'https://w.example', icons: [] },
          })
          wallets.push(wallet)
          wallet.on('session_request', () =>
            wallet.approveSession({ chainId: ANVIL_CHAIN_ID, accounts: [ANVIL_ACCOUNT.address] }),
          )
          wallet.on('call_request', (_, { id, method, params }) => {
            if (method === 'wallet_switchEthereumChain') onSwitch(wallet, id, Number(params[0].chainId))
          })
        },
        close() {},
      },
      rpc: { [ANVIL_CHAIN_ID]: anvil.url, 10: anvil.url },
      chainId: ANVIL_CHAIN_ID,
    })
    provider.client.on('session_update', ({ chainId }) => updates.push(chainId))
    await provider.enable()
    return { provider, updates, chainChanged: record(provider) }
  }

  test.each([
    ['the session update, then the answer', 'update-first'],
    ['the answer, then the session update', 'answer-first'],
  ])('behavior: %s → one chainChanged', async (_, order) => {
    const { provider, updates, chainChanged } = await connected((wallet, id, chainId) => {
      const update = () => wallet.updateSession({ chainId, accounts: [ANVIL_ACCOUNT.address] })
      if (order === 'update-first') update()
      wallet.approveRequest({ id, result: null })
      if (order === 'answer-first') update()
    })
    expect(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }),
    ).toBe(null)
    await waitFor(() => updates.includes(10), { message: 'the wallet’s session update' })
    expect(chainChanged).toEqual(['0xa'])
    // The chain it is on: nothing to do, the wallet is not asked.
    expect(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }),
    ).toBe(null)
    expect(chainChanged).toEqual(['0xa'])
    await provider.disconnect()
  })
})

describe('v2: the switch, the wallet’s session update and its chainChanged event', () => {
  let stack: Awaited<ReturnType<typeof startV2Stack>>
  const closes: (() => Promise<void>)[] = []
  beforeAll(async () => {
    stack = await startV2Stack()
  })
  afterEach(async () => {
    for (const close of closes.splice(0)) await close()
  })
  afterAll(() => stack.stop())

  async function connected() {
    const client = createV2Client({ relayUrl: stack.relayUrl, modal: stack.modal, chains: [1, 10] })
    closes.push(() => client.close())
    const provider = createProvider({
      client,
      chainId: ANVIL_CHAIN_ID,
      rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url, 1: stack.anvil.url, 10: stack.anvil.url },
    })
    const updates: number[] = []
    client.on('session_update', ({ chainId }) => updates.push(chainId))
    await provider.enable()
    const [topic] = Object.keys(stack.wallet.getActiveSessions())
    if (!topic) throw new Error('no session')
    return { provider, updates, topic, chainChanged: record(provider) }
  }

  /** What a WalletKit wallet sends when it moves to `chainId` (apps/wallet's order): a grant, then the event. */
  async function walletSwitch(topic: string, chainId: number, chains: number[]) {
    const { acknowledged } = await stack.wallet.updateSession({ topic, namespaces: grant(chains) })
    await acknowledged()
    await stack.wallet.emitSessionEvent({
      topic,
      event: { name: 'chainChanged', data: chainId },
      chainId: `eip155:${chainId}`,
    })
  }

  test('behavior: the dapp switches, then the wallet follows with its update and event → one chainChanged', async () => {
    const { provider, updates, topic, chainChanged } = await connected()
    expect(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    ).toBe(null)
    const seen = updates.length
    await walletSwitch(topic, 1, [ANVIL_CHAIN_ID, 1])
    await waitFor(() => updates.length >= seen + 2, { message: 'the update and the event' })
    expect(chainChanged).toEqual(['0x1'])
  })

  test('behavior: the wallet switches to a chain it grants → one chainChanged', async () => {
    const { updates, topic, chainChanged } = await connected()
    await walletSwitch(topic, 10, [ANVIL_CHAIN_ID, 1, 10])
    await waitFor(() => updates.includes(10), { message: 'the switch' })
    expect(chainChanged).toEqual(['0xa'])
  })

  test('behavior: the wallet’s chainChanged for the chain the dapp is on → none', async () => {
    const { provider, updates, topic, chainChanged } = await connected()
    await walletSwitch(topic, ANVIL_CHAIN_ID, [ANVIL_CHAIN_ID, 1])
    await waitFor(() => updates.length >= 2, { message: 'the update and the event' })
    expect(
      await provider.request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: `0x${ANVIL_CHAIN_ID.toString(16)}` }],
      }),
    ).toBe(null)
    expect(chainChanged).toEqual([])
  })
})
