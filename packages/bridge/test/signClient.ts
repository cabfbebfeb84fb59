// Both peers are the published v2 SDK in one process: each needs its own Core (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { recoverMessageAddress, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

// One of anvil's well-known dev keys: a real signature, no secret.
export const account = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)
export const chainId = 'eip155:1'
const methods = ['personal_sign', 'eth_sendTransaction']
const events = ['accountsChanged', 'chainChanged']

type Client = Awaited<ReturnType<typeof SignClient.init>>
const live = new Set<Client>()

/** A SignClient on `relayUrl` with a storage prefix of its own. */
async function createClient(relayUrl: string, name: string): Promise<Client> {
  const client = await SignClient.init({
    relayUrl,
    projectId: '0123456789abcdef0123456789abcdef',
    customStoragePrefix: `${name}-${randomUUID()}`,
    logger: 'silent',
    metadata: { name, description: name, url: `https://${name}.example`, icons: [] },
  })
  live.add(client)
  return client
}

/** The wallet's namespaces for `account`. */
export const namespaces = (address: string = account.address) => ({
  eip155: { chains: [chainId], accounts: [`${chainId}:${address}`], methods, events },
})

/**
 * dapp.connect → wallet.pair → approve → both sides settled (the wallet's session acknowledged). The wallet may use
 * another relay node (`walletRelayUrl`) sharing the dapp's store.
 */
export async function pairClients(relayUrl: string, walletRelayUrl = relayUrl) {
  const dapp = await createClient(relayUrl, 'dapp')
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: [chainId], methods, events } },
  })
  if (!uri) throw new Error('no pairing URI')
  // approval() waits from now: the SDK drops a settle that arrives before its first call (its createDelayedPromise keeps no early result).
  const settled = approval()
  settled.catch(() => {})
  // The wallet is created after the dapp published its proposal: the relay's mailbox must hand it over.
  const wallet = await createClient(walletRelayUrl, 'wallet')
  wallet.on('session_proposal', ({ id }) => {
    wallet.approve({ id, namespaces: namespaces() }).catch(() => {})
  })
  await wallet.pair({ uri })
  return { dapp, wallet, session: await settled }
}

/** Closes every client's transport and stops its timers. */
export async function closeClients() {
  for (const client of live) {
    client.core.heartbeat.stop()
    await client.core.relayer.transportClose().catch(() => {})
  }
  live.clear()
}

/**
 * A WalletKit wallet (@reown/walletkit 1.6.0) on `relayUrl`. WalletKit takes a Core; its package is not a dependency
 * of ours, so the Core class is taken from a SignClient, which carries the same @walletconnect/core 2.25.0.
 */
async function createWalletKit(relayUrl: string, dapp: Client) {
  const CoreClass = dapp.core.constructor as new (options: Record<string, unknown>) => Client['core']
  const core = new CoreClass({
    relayUrl,
    projectId: '0123456789abcdef0123456789abcdef',
    customStoragePrefix: `walletkit-${randomUUID()}`,
    logger: 'silent',
  })
  const wallet = await WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { name: 'walletkit', description: 'walletkit', url: 'https://walletkit.example', icons: [] },
  })
  live.add(wallet.engine.signClient as unknown as Client)
  return wallet
}

/** A dapp SignClient on `relayUrl`. */
const createDapp = (relayUrl: string) => createClient(relayUrl, 'dapp')

/**
 * A sign-client dapp on `relayUrl` paired with a WalletKit wallet on `walletRelayUrl` that approves and answers
 * `personal_sign` with a real signature; resolves once the dapp has its session.
 */
export async function pairWalletKit(relayUrl: string, walletRelayUrl = relayUrl) {
  const dapp = await createDapp(relayUrl)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: [chainId], methods: ['personal_sign'], events: [] } },
  })
  if (!uri) throw new Error('no pairing URI')
  const settled = approval()
  settled.catch(() => {})
  const wallet = await createWalletKit(walletRelayUrl, dapp)
  wallet.on('session_proposal', ({ id }) => {
    wallet.approveSession({ id, namespaces: namespaces() }).catch(() => {})
  })
  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [`0x${string}`, string]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  await wallet.pair({ uri })
  return { dapp, wallet, session: await settled }
}

/** Asks the dapp for `personal_sign` of `text` and resolves with the address the signature recovers to. */
export async function signedBy(dapp: Client, topic: string, text: string) {
  const message = toHex(text)
  const signature = await dapp.request<`0x${string}`>({
    topic,
    chainId,
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  return recoverMessageAddress({ message: { raw: message }, signature })
}
