// The published v2 SDK as the peer: several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { createBridgeServer } from '@pairlink/bridge'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createMemoryStorage, type SessionStorage } from '../src/storage.js'
import { createSignClient, type SignClient as OurSignClient } from '../src/v2/index.js'

// One of anvil's well-known dev keys: real signatures, no secret.
export const account = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)
export const methods = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
]
export const events = ['chainChanged', 'accountsChanged']
const projectId = '0123456789abcdef0123456789abcdef'
export const dappMetadata = {
  name: 'Pairlink dapp',
  description: 'dapp',
  url: 'https://dapp.example',
  icons: [],
}
export const walletMetadata = {
  name: 'Pairlink wallet',
  description: 'wallet',
  url: 'https://wallet.example',
  icons: [],
}

/** Session namespaces granting `account` on `chains`. */
export const grant = (chains: string[] = ['eip155:1'], address: string = account.address) => ({
  eip155: { chains, accounts: chains.map((chain) => `${chain}:${address}`), methods, events },
})

/** The real relay of `@pairlink/bridge` on 127.0.0.1 (a free port), with a restart on the same port. */
export async function startRelay(options: Parameters<typeof createBridgeServer>[0] = {}) {
  let server = createBridgeServer(options)
  const { url, port } = await server.listen(0, '127.0.0.1')
  return {
    relayUrl: url.replace(/^http/, 'ws'),
    /** Closes the relay: every socket is dropped. */
    stop: () => server.close(),
    /** The relay's counters now (publishes, deliveries, …). */
    counts: () => ({ ...server.relay?.counts }),
    /** A fresh relay on the same port (its memory store starts empty). */
    async start() {
      server = createBridgeServer(options)
      await server.listen(port, '127.0.0.1')
    },
  }
}

/**
 * One relay ({@link startRelay}) for every test of the file, and our sign clients on it: each client made with
 * `create` is closed after its test, as is every SDK client ({@link closeSdkClients}).
 * @example
 * const relay = useRelay()
 * test('default', async () => {
 *   const dapp = relay.create(dappMetadata)
 *   const wallet = await createSdkWallet(relay.relayUrl)
 * })
 */
export function useRelay() {
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined
  const clients: OurSignClient[] = []
  beforeAll(async () => {
    relay = await startRelay()
  })
  afterEach(async () => {
    await closeClients()
    await closeSdkClients()
  })
  afterAll(() => relay?.stop())
  const relayUrl = () => {
    if (!relay) throw new Error('useRelay: the relay is not started yet')
    return relay.relayUrl
  }
  /** Closes our clients made so far (a test may close them early, to restore from their storage). */
  async function closeClients() {
    for (const client of clients.splice(0)) await client.close()
  }
  return {
    /** The relay's `ws://` URL (set once the file's tests start). */
    get relayUrl() {
      return relayUrl()
    },
    /** Our sign client with `metadata` on the relay, closed after the test. */
    create(metadata: typeof dappMetadata, storage: SessionStorage = createMemoryStorage()) {
      const client = createSignClient({ relayUrl: relayUrl(), metadata, storage })
      clients.push(client)
      return client
    },
    closeClients,
  }
}

type SdkClient = Awaited<ReturnType<typeof SignClient.init>>
const live: { core: SdkClient['core'] }[] = []

/** A published sign-client dapp (2.25.0) on `relayUrl`. */
export async function createSdkDapp(relayUrl: string): Promise<SdkClient> {
  const client = await SignClient.init({
    relayUrl,
    projectId,
    customStoragePrefix: `dapp-${randomUUID()}`,
    logger: 'silent',
    metadata: { ...dappMetadata, name: 'sdk dapp' },
  })
  live.push(client)
  return client
}

type CoreConstructor = new (options: Record<string, unknown>) => SdkClient['core']
// WalletKit takes a Core, whose package (2.25.0) is nested under the SDK's: its class is read off a SignClient.
let CoreClass: CoreConstructor | undefined

/** A published WalletKit wallet (1.6.0, core 2.25.0) on `relayUrl`; its Core class is taken from a SignClient's. */
export async function createWalletKit(relayUrl: string) {
  CoreClass ??= (await createSdkDapp(relayUrl)).core.constructor as CoreConstructor
  const core = new CoreClass({
    relayUrl,
    projectId,
    customStoragePrefix: `walletkit-${randomUUID()}`,
    logger: 'silent',
  })
  const wallet = await WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { ...walletMetadata, name: 'walletkit' },
  })
  live.push(wallet)
  return wallet
}

/**
 * A WalletKit wallet that approves the next proposal with {@link grant} and answers every request as a wallet does:
 * real signatures ({@link answer}), a refusal (5000) for a request whose first param is `'reject'`, and for
 * `wallet_switchEthereumChain` a chain switch (grant eip155:10, answer `null`, emit `chainChanged`).
 */
export async function createAnsweringWalletKit(relayUrl: string) {
  const wallet = await createWalletKit(relayUrl)
  const proposal = new Promise<Record<string, unknown>>((resolve) =>
    wallet.on('session_proposal', ({ id, params }) => {
      resolve(params as unknown as Record<string, unknown>)
      wallet.approveSession({ id, namespaces: grant() }).catch(() => {})
    }),
  )
  wallet.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request
    const respond = (response: { result: unknown } | { error: { code: number; message: string } }) =>
      wallet.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', ...response } as never })
    if (method === 'wallet_switchEthereumChain') {
      await wallet.updateSession({ topic, namespaces: grant(['eip155:1', 'eip155:10']) })
      await respond({ result: null })
      const event = { name: 'chainChanged', data: 10 }
      return wallet.emitSessionEvent({ topic, chainId: 'eip155:10', event })
    }
    if ((args as unknown[])[0] === 'reject')
      return respond({ error: { code: 5000, message: 'User rejected.' } })
    await respond({ result: await answer(method, args as unknown[]) })
  })
  return { wallet, proposal }
}

/** A published sign-client (2.25.0) in the wallet role on `relayUrl`. */
export async function createSdkWallet(relayUrl: string): Promise<SdkClient> {
  const client = await SignClient.init({
    relayUrl,
    projectId,
    customStoragePrefix: `wallet-${randomUUID()}`,
    logger: 'silent',
    metadata: { ...walletMetadata, name: 'sdk wallet' },
  })
  live.push(client)
  return client
}

/** Closes every SDK client's socket and stops its heartbeat. */
export async function closeSdkClients() {
  for (const { core } of live.splice(0)) {
    core.heartbeat.stop()
    await core.relayer.transportClose().catch(() => {})
  }
}

/** How a wallet answers a request with this dev account: real signatures; a transaction is signed and its hash given. */
export async function answer(method: string, params: unknown[]): Promise<Hex> {
  if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } })
  if (method === 'eth_signTypedData_v4') return account.signTypedData(JSON.parse(params[1] as string))
  if (method === 'eth_sendTransaction') {
    const tx = params[0] as { to: Hex; value: Hex }
    const signed = await account.signTransaction({
      chainId: 1,
      to: tx.to,
      value: BigInt(tx.value),
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    })
    return keccak256(signed)
  }
  throw new Error(`no answer for ${method}`)
}

/** EIP-712 typed data for `eth_signTypedData_v4` tests. */
export const typedData = {
  domain: { name: 'Pairlink', version: '1', chainId: 1 },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'to', type: 'address' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', contents: 'Hello' },
} as const
