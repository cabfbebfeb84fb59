// The published WalletKit 1.6.0 (core 2.25.0) as the wallet; several SDK clients in one process each need a Core of
// their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { createBridgeServer } from '@pairlink/bridge'
import type { ModalAdapter } from '@pairlink/client'
import type { AuthPayload } from '@pairlink/protocol/v2'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID, type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const projectId = '0123456789abcdef0123456789abcdef'
const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']
const EVENTS = ['chainChanged', 'accountsChanged']

/** Session namespaces granting `address` on `chains` (numbers). */
export const grant = (chains: number[], address: string = account.address) => ({
  eip155: {
    chains: chains.map((id) => `eip155:${id}`),
    accounts: chains.map((id) => `eip155:${id}:${address}`),
    methods: METHODS,
    events: EVENTS,
  },
})

type Kit = Awaited<ReturnType<typeof WalletKit.init>>
// The SDK's own shapes of a request and a CACAO (WalletKit's nested @walletconnect/types).
type SdkAuthPayload = Parameters<Kit['formatAuthMessage']>[0]['request']
type SdkCacao = Parameters<Kit['approveSessionAuthenticate']>[0]['auths'][number]
type SdkClient = Awaited<ReturnType<typeof SignClient.init>>
type CoreConstructor = new (options: Record<string, unknown>) => SdkClient['core']
let CoreClass: CoreConstructor | undefined
const cores: SdkClient['core'][] = []

/** A WalletKit wallet on `relayUrl`; its Core class (2.25.0, nested under the SDK) is read off a SignClient's. */
async function createWalletKit(relayUrl: string): Promise<Kit> {
  if (!CoreClass) {
    const probe = await SignClient.init({
      relayUrl,
      projectId,
      customStoragePrefix: `probe-${randomUUID()}`,
      logger: 'silent',
    })
    cores.push(probe.core)
    CoreClass = probe.core.constructor as CoreConstructor
  }
  const core = new CoreClass({
    relayUrl,
    projectId,
    customStoragePrefix: `walletkit-${randomUUID()}`,
    logger: 'silent',
  })
  cores.push(core)
  return WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { name: 'walletkit', description: 'wallet', url: 'https://wallet.example', icons: [] },
  })
}

// The published SDK's helpers (@walletconnect/utils 2.25.0, as sign-client resolves it), as a wallet built on it answers
// `session_authenticate`.
const fromSignClient = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))
const sdkUtils = fromSignClient('@walletconnect/utils') as {
  populateAuthPayload(p: {
    authPayload: SdkAuthPayload
    chains: string[]
    methods: string[]
  }): SdkAuthPayload & {
    chains: string[]
  }
  buildAuthObject(payload: SdkAuthPayload, signature: { t: string; s: string }, iss: string): SdkCacao
}

/**
 * How WalletKit approves a one-click auth request, as WalletConnect's docs show it: the request narrowed to the chains
 * and methods the wallet supports, one CACAO per chain signed by the dev account. (WalletKit checks the signatures it
 * sends: a forged one never leaves it.)
 */
async function approveAuth(wallet: Kit, id: number, request: SdkAuthPayload, chains: number[]) {
  const authPayload = sdkUtils.populateAuthPayload({
    authPayload: request,
    chains: chains.map((chain) => `eip155:${chain}`),
    methods: METHODS,
  })
  const auths: SdkCacao[] = []
  for (const chain of authPayload.chains) {
    const iss = `did:pkh:${chain}:${account.address}`
    const message = wallet.formatAuthMessage({ request: authPayload, iss })
    const s = await account.signMessage({ message })
    auths.push(sdkUtils.buildAuthObject(authPayload, { t: 'eip191', s }, iss))
  }
  await wallet.approveSessionAuthenticate({ id, auths })
}

/** What the wallet does with the next proposal and with each request. */
type WalletBehavior = {
  /** Chains to grant, or `'reject'`. */
  proposal: number[] | 'reject'
  /**
   * A one-click auth request (`session_authenticate`): signed for the proposal's chains, refused, or not listened to
   * at all (`unsupported`: the wallet answers the proposal).
   */
  authenticate: 'approve' | 'reject' | 'unsupported'
  /** Requests whose first param is `'reject'`-like are refused with the SDK's 5000 `User rejected.`. */
  rejectRequests: boolean
}

/**
 * Everything real: anvil, our relay on 127.0.0.1, and a modal adapter at the provider's seam that records what it is
 * shown and hands the URI to a WalletKit wallet the moment it opens, as a person scanning the QR code would — unless
 * `scan` is off (the code is left to expire).
 */
export async function startV2Stack() {
  const anvil: Anvil = await startAnvil()
  const server = createBridgeServer()
  const { url } = await server.listen(0, '127.0.0.1')
  const relayUrl = url.replace(/^http/, 'ws')
  const behavior: WalletBehavior = {
    proposal: [ANVIL_CHAIN_ID, 1],
    authenticate: 'approve',
    rejectRequests: false,
  }
  const authRequests: AuthPayload[] = []
  const wallets: Kit[] = []
  const shown: { uri: string; options: { onExpired?: () => Promise<void> } }[] = []
  let scan = true
  let closes = 0
  let onUserClose: (() => void) | undefined

  async function pairWallet(uri: string) {
    const wallet = await createWalletKit(relayUrl)
    wallets.push(wallet)
    wallet.on('session_proposal', ({ id }) => {
      const answer =
        behavior.proposal === 'reject'
          ? wallet.rejectSession({ id, reason: { code: 5000, message: 'User rejected.' } })
          : wallet.approveSession({ id, namespaces: grant(behavior.proposal) })
      answer.catch(() => {})
    })
    if (behavior.authenticate !== 'unsupported')
      wallet.on('session_authenticate', ({ id, params }) => {
        authRequests.push(params.authPayload as AuthPayload)
        const chains = behavior.proposal === 'reject' ? [] : behavior.proposal
        const answer =
          behavior.authenticate === 'reject'
            ? wallet.rejectSessionAuthenticate({ id, reason: { code: 5000, message: 'User rejected.' } })
            : approveAuth(wallet, id, params.authPayload, chains)
        answer.catch(() => {})
      })
    wallet.on('session_request', async ({ id, topic, params }) => {
      const respond = (response: { result: unknown } | { error: { code: number; message: string } }) =>
        wallet.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', ...response } })
      if (behavior.rejectRequests) return respond({ error: { code: 5000, message: 'User rejected.' } })
      try {
        respond({ result: await answer(anvil.url, params.request.method, params.request.params as never) })
      } catch (error) {
        respond({ error: { code: -32000, message: (error as Error).message } })
      }
    })
    await wallet.pair({ uri })
  }

  const modal: ModalAdapter = {
    open(uri, close, options) {
      shown.push({ uri, options: options as { onExpired?: () => Promise<void> } })
      onUserClose = close
      if (scan) void pairWallet(uri)
    },
    close() {
      closes++
    },
  }

  return {
    anvil,
    relayUrl,
    modal,
    behavior,
    /** The URIs the modal was given, in order, with the options each came with. */
    shown,
    /** The one-click auth requests the wallets received, in order. */
    authRequests,
    get closes() {
      return closes
    },
    /** Whether the next URIs are scanned by a wallet. */
    set scan(value: boolean) {
      scan = value
    },
    /** A wallet scans `uri` (an app that draws its own QR code hands it over). */
    pair: pairWallet,
    /** A wallet scans the URI shown last. */
    async scanLast() {
      const last = shown.at(-1)
      if (!last) throw new Error('no URI shown')
      await pairWallet(last.uri)
    },
    /** The person closes the modal. */
    closeModal: () => onUserClose?.(),
    /** The wallet of the latest pairing. */
    get wallet(): Kit {
      const wallet = wallets.at(-1)
      if (!wallet) throw new Error('no wallet yet')
      return wallet
    },
    async stop() {
      for (const core of cores.splice(0)) {
        core.heartbeat.stop()
        await core.relayer.transportClose().catch(() => {})
      }
      await server.close()
      await anvil.stop()
    },
  }
}

/** How the wallet answers: real signatures with the dev account; a transaction is sent to anvil and its hash given. */
async function answer(rpcUrl: string, method: string, params: unknown[]): Promise<Hex> {
  if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } })
  if (method === 'eth_signTypedData_v4') return account.signTypedData(JSON.parse(params[1] as string))
  if (method === 'eth_sendTransaction') {
    const tx = params[0] as { to: Hex; value?: Hex }
    const chain = defineChain({
      id: ANVIL_CHAIN_ID,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    })
    const client = createWalletClient({ account, chain, transport: http(rpcUrl) })
    return client.sendTransaction({ to: tx.to, value: BigInt(tx.value ?? 0) })
  }
  throw new Error(`no answer for ${method}`)
}
