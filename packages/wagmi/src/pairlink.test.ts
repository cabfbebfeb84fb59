import { createMemoryStorage } from '@pairlink/client'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import {
  type Config,
  connect,
  createConfig,
  createStorage,
  disconnect,
  getAccount,
  http,
  reconnect,
  signMessage,
  switchChain,
} from '@wagmi/core'
import { UserRejectedRequestError, verifyMessage } from 'viem'
import { foundry, mainnet, optimism } from 'viem/chains'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { startTestWallet } from '../../provider/test/wallet.js'
import { account, grant, startV2Stack } from '../../provider/test/walletKit.js'
import { type PairlinkParameters, pairlink } from './pairlink.js'

// wagmi's own actions driving the connector; the published WalletKit 1.6.0 as the wallet, Pairlink's relay and anvil,
// all real. The app draws no modal here (`showQrModal: false`): the URI it is handed as `display_uri` goes to the
// wallet, as a person scanning the app's own QR code would.
let stack: Awaited<ReturnType<typeof startV2Stack>>
const configs: Config[] = []
beforeAll(async () => {
  stack = await startV2Stack()
})
afterEach(async () => {
  for (const config of configs.splice(0)) await disconnect(config).catch(() => {})
  stack.behavior.proposal = [ANVIL_CHAIN_ID, 1]
  stack.behavior.rejectRequests = false
})
afterAll(() => stack.stop())

/**
 * A wagmi config with the connector; `storage` is what survives a reload (wagmi's and the session's), `scan` what
 * the wallet does with a URI the connector hands out (none: nobody scans it).
 */
function setup({
  storage = { wagmi: new Map<string, string>(), session: createMemoryStorage() },
  scan = (uri: string): unknown => stack.pair(uri),
  options = { relayUrl: stack.relayUrl } as PairlinkParameters,
}: {
  storage?: { wagmi: Map<string, string>; session: ReturnType<typeof createMemoryStorage> }
  scan?: ((uri: string) => unknown) | undefined
  options?: PairlinkParameters
} = {}) {
  const parameters: PairlinkParameters = {
    ...options,
    showQrModal: false,
    storage: storage.session,
    metadata: { name: 'wagmi test', description: 'pairlink()', url: 'https://dapp.example', icons: [] },
  }
  const config = createConfig({
    chains: [{ ...foundry, id: ANVIL_CHAIN_ID }, mainnet, optimism],
    connectors: [pairlink(parameters)],
    transports: {
      [ANVIL_CHAIN_ID]: http(stack.anvil.url),
      [mainnet.id]: http(stack.anvil.url),
      [optimism.id]: http(stack.anvil.url),
    },
    storage: createStorage({
      storage: {
        getItem: (key) => storage.wagmi.get(key) ?? null,
        setItem: (key, value) => void storage.wagmi.set(key, value),
        removeItem: (key) => void storage.wagmi.delete(key),
      },
    }),
  })
  configs.push(config)
  const [connector] = config.connectors
  if (!connector) throw new Error('no connector')
  const uris: string[] = []
  connector.emitter.on('message', ({ type, data }) => {
    if (type !== 'display_uri') return
    uris.push(data as string)
    scan?.(data as string)
  })
  return { config, connector, uris, storage }
}

test('default: connect through display_uri, account and chain, a signature, disconnect', async () => {
  const { config, connector, uris } = setup()
  expect(connector.id).toBe('pairlink')
  expect(connector.type).toBe('pairlink')
  const result = await connect(config, { connector })
  expect(result.accounts).toEqual([account.address])
  expect(result.chainId).toBe(ANVIL_CHAIN_ID)
  expect(uris).toHaveLength(1)
  expect(uris[0]).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  expect(getAccount(config)).toMatchObject({
    status: 'connected',
    address: account.address,
    chainId: ANVIL_CHAIN_ID,
  })

  const message = 'Signed through wagmi'
  const signature = await signMessage(config, { message })
  expect(await verifyMessage({ address: account.address, message, signature })).toBe(true)

  await disconnect(config)
  expect(getAccount(config).status).toBe('disconnected')
  // The wallet was told: its session is gone.
  await expect.poll(() => Object.keys(stack.wallet.getActiveSessions()).length).toBe(0)
})

test('behavior: switchChain within the session; a chain outside it is a SwitchChainError', async () => {
  const { config, connector } = setup()
  await connect(config, { connector })
  const chain = await switchChain(config, { chainId: mainnet.id })
  expect(chain.id).toBe(mainnet.id)
  expect(getAccount(config).chainId).toBe(mainnet.id)
  // Optimism is one of the app's chains, but the wallet granted only anvil and mainnet.
  await expect(switchChain(config, { chainId: optimism.id })).rejects.toMatchObject({
    name: 'SwitchChainError',
  })
  expect(getAccount(config).chainId).toBe(mainnet.id)
})

test('behavior: one switch is one change event; none to the chain it is on', async () => {
  const { config, connector } = setup()
  await connect(config, { connector })
  const changes: unknown[] = []
  connector.emitter.on('change', ({ chainId }) => changes.push(chainId))
  await switchChain(config, { chainId: mainnet.id })
  expect(changes).toEqual([mainnet.id])
  await switchChain(config, { chainId: mainnet.id })
  expect(changes).toEqual([mainnet.id])
  expect(getAccount(config).chainId).toBe(mainnet.id)
})

test('behavior: reconnect after a reload restores the session without a URI', async () => {
  const first = setup()
  await connect(first.config, { connector: first.connector })
  // A reload: a new config and connector over the same storage; wagmi reconnects on its own.
  const second = setup({ storage: first.storage, scan: undefined })
  const restored = await reconnect(second.config)
  expect(restored.map(({ accounts }) => accounts)).toEqual([[account.address]])
  expect(getAccount(second.config)).toMatchObject({ status: 'connected', address: account.address })
  expect(second.uris).toEqual([])
  const signature = await signMessage(second.config, { message: 'after reload' })
  expect(await verifyMessage({ address: account.address, message: 'after reload', signature })).toBe(true)
})

test('behavior: the wallet ends the session → wagmi is disconnected', async () => {
  const { config, connector } = setup()
  await connect(config, { connector })
  const [topic] = Object.keys(stack.wallet.getActiveSessions())
  await stack.wallet.disconnectSession({
    topic: topic as string,
    reason: { code: 6000, message: 'User disconnected.' },
  })
  await expect.poll(() => getAccount(config).status).toBe('disconnected')
})

test('behavior: accountsChanged and chainChanged from the wallet reach wagmi', async () => {
  const { config, connector } = setup()
  await connect(config, { connector })
  const [topic] = Object.keys(stack.wallet.getActiveSessions())
  await stack.wallet.emitSessionEvent({
    topic: topic as string,
    chainId: 'eip155:1',
    event: { name: 'chainChanged', data: 1 },
  })
  await expect.poll(() => getAccount(config).chainId).toBe(1)
  const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  await stack.wallet.updateSession({ topic: topic as string, namespaces: grant([ANVIL_CHAIN_ID, 1], other) })
  await expect.poll(() => getAccount(config).address).toBe(other)
})

test('error: the wallet rejects the proposal → UserRejectedRequestError', async () => {
  stack.behavior.proposal = 'reject'
  const { config, connector } = setup()
  const error = await connect(config, { connector }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(UserRejectedRequestError)
  expect(getAccount(config).status).toBe('disconnected')
})

test('error: a request the wallet refuses is a UserRejectedRequestError', async () => {
  const { config, connector } = setup()
  await connect(config, { connector })
  stack.behavior.rejectRequests = true
  const error = await signMessage(config, { message: 'no' }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect((error as { name?: string }).name).toBe('UserRejectedRequestError')
  expect((error as { code?: number } | undefined)?.code).toBe(4001)
})

test('args: bridge — a WalletConnect v1 session through the same server, with Pairlink’s v1 wallet', async () => {
  const wallets: ReturnType<typeof startTestWallet>[] = []
  const { config, connector, uris } = setup({
    options: { bridge: stack.relayUrl.replace(/^ws/, 'http') },
    scan: (uri) =>
      wallets.push(startTestWallet({ uri, rpcUrl: stack.anvil.url, privateKey: ANVIL_ACCOUNT.privateKey })),
  })
  try {
    const result = await connect(config, { connector })
    expect(uris[0]).toMatch(/^wc:[0-9a-f-]+@1\?bridge=/)
    expect(result).toEqual({ accounts: [account.address], chainId: ANVIL_CHAIN_ID })
    const signature = await signMessage(config, { message: 'over v1' })
    expect(await verifyMessage({ address: account.address, message: 'over v1', signature })).toBe(true)
    await disconnect(config)
    await expect.poll(() => wallets[0]?.client.connected).toBe(false)
  } finally {
    for (const wallet of wallets) await wallet.close()
  }
})

test('args: provider — the app’s own provider (its own modal, time-out, polling): the connector follows its session', async () => {
  const { createProvider } = await import('@pairlink/provider')
  const provider = createProvider({
    version: 2,
    relayUrl: stack.relayUrl,
    // The app's own modal: here, the wallet scanning what it would show.
    modal: { open: (uri) => void stack.pair(uri), close: () => {} },
    clientParameters: {
      clientMeta: { name: 'wagmi test', description: 'pairlink()', url: 'https://dapp.example', icons: [] },
      storage: createMemoryStorage(),
    },
    rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
    chainId: ANVIL_CHAIN_ID,
  })
  const { config, connector, uris } = setup({ options: { provider }, scan: undefined })
  expect(await connector.getProvider()).toBe(provider)
  const result = await connect(config, { connector })
  expect(result).toEqual({ accounts: [account.address], chainId: ANVIL_CHAIN_ID })
  // The connector made no provider, so no URI of its own.
  expect(uris).toEqual([])
  const signature = await signMessage(config, { message: 'through the app’s provider' })
  expect(
    await verifyMessage({ address: account.address, message: 'through the app’s provider', signature }),
  ).toBe(true)
  await disconnect(config)
  expect(provider.client.connected).toBe(false)
})
