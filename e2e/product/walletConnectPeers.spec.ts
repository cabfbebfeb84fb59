// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { WALLETCONNECT_TEST_WALLETS, type WalletConnectNetwork } from '@pairlink/test-kit/walletconnect'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, toHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNT_0 } from './support/accounts.js'
import { CLI_BUILD, startCliWallet } from './support/cliWallet.js'
import { copyPairingUri } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import {
  KNOWN_PROJECT_ID,
  launchOnNetwork,
  networkEnv,
  startNetwork,
  upgradesFrom,
} from './support/walletConnectNetwork.js'

// The product with a project id, WalletConnect's network played by its stand-in: the published peers pair through it
// (WalletKit 1.6.0 with the web app, pairlink-wallet with the published sign-client 2.25.0), and the wallet list comes
// from the stand-in's explorer, its last good copy kept when a refresh fails. One product, restarted once at the end.
test.describe.configure({ mode: 'serial' })

type Core = Awaited<ReturnType<typeof SignClient.init>>['core']
type Kit = Awaited<ReturnType<typeof WalletKit.init>>
type ListDocument = { count: number; listings: Record<string, { name: string; image_url: { sm: string } }> }

const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const CHAIN = 'eip155:31337'
const cores: Core[] = []
let network: WalletConnectNetwork
let browser: Browser
let dataDir: string
let product: Product
let dapp: Page

test.beforeAll(async () => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  network = await startNetwork()
  browser = await launchOnNetwork(network)
  // The server keeps its last good explorer list under DATA_DIR: the restart below reuses it.
  dataDir = mkdtempSync(join(tmpdir(), 'pairlink-e2e-peers-'))
  product = await startProduct({ ...networkEnv(network), DATA_DIR: dataDir })
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  dapp = await context.newPage()
})

test.afterAll(async () => {
  for (const core of cores.splice(0)) {
    core.heartbeat.stop()
    await core.relayer.transportClose().catch(() => {})
  }
  await browser?.close()
  await product?.stop()
  await network?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** The published SDK's options on the stand-in's plain relay (Node takes no test CA) with the known project. */
const sdkOptions = (name: string) => ({
  relayUrl: network.plainRelayUrl,
  projectId: KNOWN_PROJECT_ID,
  customStoragePrefix: `${name}-${crypto.randomUUID()}`,
  logger: 'silent',
})

/** WalletKit 1.6.0 on the stand-in, approving with dev account 0 and signing `personal_sign`. */
async function startWalletKit(): Promise<Kit> {
  // WalletKit takes a Core, whose package (2.25.0) is nested under the SDK's: its class is read off a SignClient's.
  const probe = await SignClient.init(sdkOptions('probe'))
  cores.push(probe.core)
  const CoreClass = probe.core.constructor as new (options: Record<string, unknown>) => Core
  const core = new CoreClass(sdkOptions('walletkit'))
  cores.push(core)
  const kit = await WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { name: 'WalletKit', description: 'wallet', url: 'https://walletkit.example', icons: [] },
  })
  kit.on('session_proposal', ({ id }) => {
    const namespaces = {
      eip155: {
        chains: [CHAIN],
        accounts: [`${CHAIN}:${account.address}`],
        methods: ['personal_sign'],
        events: ['chainChanged', 'accountsChanged'],
      },
    }
    kit.approveSession({ id, namespaces }).catch(() => {})
  })
  kit.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [Hex]
    const result = await account.signMessage({ message: { raw: message } })
    await kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  return kit
}

test('WalletKit 1.6.0 on the stand-in pairs with the web app from the modal’s copied link and signs', async () => {
  const kit = await startWalletKit()
  await dapp.goto(product.origin)
  await expect(dapp.getByTestId('connect-intro')).toHaveAttribute('data-network', 'walletconnect')
  const uri = await copyPairingUri(dapp, 2)
  await kit.pair({ uri })
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('wallet-name')).toHaveText('WalletKit')
  await dapp.getByTestId('sign-message-input').fill('Pairlink through WalletConnect’s network')
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  // The page reached the stand-in by its real name with the project id; WalletKit (no Origin) on its plain port.
  const page = upgradesFrom(network, product.origin)
  expect(page.length).toBeGreaterThanOrEqual(1)
  for (const attempt of page) expect(attempt).toMatchObject({ projectId: KNOWN_PROJECT_ID, outcome: 'open' })
  await dapp.getByTestId('disconnect-button').click()
  await expect(dapp.getByTestId('connect-button')).toBeVisible()
})

test('pairlink-wallet --project-id --relay-url answers the published sign-client 2.25.0 there', async () => {
  expect(readFileSync(CLI_BUILD).length, `${CLI_BUILD}: run npm run build`).toBeGreaterThan(0)
  const client = await SignClient.init({
    ...sdkOptions('sign-client'),
    metadata: { name: 'sign-client dapp', description: 'dapp', url: 'https://dapp.example', icons: [] },
  })
  cores.push(client.core)
  const { uri, approval } = await client.connect({
    optionalNamespaces: { eip155: { chains: [CHAIN], methods: ['personal_sign'], events: [] } },
  })
  if (!uri) throw new Error('the sign-client gave no pairing URI')
  const settled = approval()
  const cli = startCliWallet([
    ...['--uri', uri, '--approve', '--auto-sign', '--chain-id', '31337', '--rpc-url', product.rpcUrl],
    ...['--project-id', KNOWN_PROJECT_ID, '--relay-url', network.plainRelayUrl],
  ])
  try {
    const { topic } = await settled
    const message = toHex('pairlink-wallet through the stand-in')
    const signature = await client.request<Hex>({
      topic,
      chainId: CHAIN,
      request: { method: 'personal_sign', params: [message, ACCOUNT_0] },
    })
    expect(await verifyMessage({ address: ACCOUNT_0, message: { raw: message }, signature })).toBe(true)
    expect(cli.events.find((e) => e.event === 'pairing')).toMatchObject({ relay: network.plainRelayUrl })
    expect(cli.names()).toContain('call_request')
  } finally {
    await cli.stop()
  }
})

/** The server's wallet list as a browser gets it. */
async function readList(): Promise<ListDocument> {
  const response = await fetch(`${product.origin}/registry/wallets.json`)
  expect(response.status).toBe(200)
  return (await response.json()) as ListDocument
}
const explorerNames = WALLETCONNECT_TEST_WALLETS.map((wallet) => wallet.name)
const listedNames = async () => Object.values((await readList()).listings).map((entry) => entry.name)

test('the wallet list is the explorer’s (Pairlink Wallet first), logos served by this server', async () => {
  // The server reads the explorer after start-up, not before: until then it serves the bundled snapshot.
  await expect.poll(listedNames, { timeout: 15_000 }).toEqual(['Pairlink Wallet', ...explorerNames])
  const list = await readList()
  expect(
    network.explorerRequests.some((r) => r.path === 'getWallets' && r.projectId === KNOWN_PROJECT_ID),
  ).toBe(true)
  for (const entry of Object.values(list.listings))
    expect(entry.image_url.sm.startsWith(`${product.origin}/registry/logos/`), entry.name).toBe(true)
  const metaMask = list.listings[WALLETCONNECT_TEST_WALLETS[0]?.id ?? ''] as ListDocument['listings'][string]
  const logo = await fetch(metaMask.image_url.sm)
  expect(logo.status).toBe(200)
  expect(logo.headers.get('content-type')).toBe('image/png')
  expect(network.explorerRequests.some((r) => r.path === 'getWalletImage' && r.status === 200)).toBe(true)
})

test('the explorer fails → after a restart with the same DATA_DIR the last good copy is still served', async () => {
  network.fail(true)
  await product.stop()
  // The copy is kept in DATA_DIR/wallet-list (createWalletList's cacheDir) with the time of its read: made two days
  // old, it is due, so the restarted server asks the explorer again, which now fails.
  const cacheFile = join(dataDir, 'wallet-list', 'explorer-wallets.json')
  const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { at: number }
  writeFileSync(cacheFile, JSON.stringify({ ...cached, at: Date.now() - 2 * 24 * 60 * 60_000 }))
  const since = Date.now()
  product = await startProduct({ ...networkEnv(network), DATA_DIR: dataDir })
  const failed = () =>
    network.explorerRequests.some((r) => r.time >= since && r.path === 'getWallets' && r.status === 500)
  await expect.poll(failed, { timeout: 15_000 }).toBe(true)
  await expect.poll(() => product.output(), { timeout: 10_000 }).toMatch(/wallet list refresh failed/)
  // Not the bundled snapshot (45 wallets): the explorer's list from before, on the new server's origin.
  expect(await listedNames()).toEqual(['Pairlink Wallet', ...explorerNames])
  const list = await readList()
  for (const entry of Object.values(list.listings))
    expect(entry.image_url.sm.startsWith(`${product.origin}/registry/logos/`), entry.name).toBe(true)
})
