import { randomUUID } from 'node:crypto'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import { expect, type Page, test } from '@playwright/test'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNT_0 } from './support/accounts.js'
import { modal } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'

// The web app over WalletConnect v2, its default, in Chromium; the wallet is the published WalletKit 1.6.0 in this
// process, on the product's own relay: pair, sign, pay, switch chain, refuse, reload, disconnect both ways.

type Kit = Awaited<ReturnType<typeof WalletKit.init>>
type Core = Awaited<ReturnType<typeof SignClient.init>>['core']

const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const projectId = '0123456789abcdef0123456789abcdef'
const cores: Core[] = []
let product: Product
let dapp: Page
let wallet: Kit
let refuse = false

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  // Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
  process.env.DISABLE_GLOBAL_CORE = 'true'
  product = await startProduct()
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  dapp = await context.newPage()
  wallet = await createWallet()
})

test.afterAll(async () => {
  for (const core of cores.splice(0)) {
    core.heartbeat.stop()
    await core.relayer.transportClose().catch(() => {})
  }
  await dapp?.context().close()
  await product?.stop()
})

/** WalletKit on the product's relay, answering with dev account 0: signatures, and payments through `/rpc`. */
async function createWallet(): Promise<Kit> {
  const relayUrl = product.origin.replace(/^http/, 'ws')
  const options = { relayUrl, projectId, logger: 'silent' }
  // WalletKit takes a Core, whose package (2.25.0) is nested under the SDK's: its class is read off a SignClient's.
  const probe = await SignClient.init({ ...options, customStoragePrefix: `probe-${randomUUID()}` })
  cores.push(probe.core)
  const CoreClass = probe.core.constructor as new (options: Record<string, unknown>) => Core
  const core = new CoreClass({ ...options, customStoragePrefix: `walletkit-${randomUUID()}` })
  cores.push(core)
  const kit = await WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { name: 'WalletKit', description: 'wallet', url: 'https://walletkit.example', icons: [] },
  })
  const chain = defineChain({
    id: ANVIL_CHAIN_ID,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [product.rpcUrl] } },
  })
  const signer = createWalletClient({ account, chain, transport: http(product.rpcUrl) })
  kit.on('session_proposal', ({ id }) => {
    const chains = [`eip155:${ANVIL_CHAIN_ID}`]
    const namespaces = {
      eip155: {
        chains,
        accounts: chains.map((c) => `${c}:${account.address}`),
        methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
        events: ['chainChanged', 'accountsChanged'],
      },
    }
    kit.approveSession({ id, namespaces }).catch(() => {})
  })
  kit.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown[] }
    const respond = (response: { result: unknown } | { error: { code: number; message: string } }) =>
      kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', ...response } })
    if (refuse) return respond({ error: { code: 5000, message: 'User rejected.' } })
    try {
      if (method === 'personal_sign')
        return respond({ result: await account.signMessage({ message: { raw: args[0] as Hex } }) })
      if (method === 'eth_signTypedData_v4')
        return respond({ result: await account.signTypedData(JSON.parse(args[1] as string)) })
      const tx = args[0] as { to: Hex; value?: Hex }
      return respond({ result: await signer.sendTransaction({ to: tx.to, value: BigInt(tx.value ?? 0) }) })
    } catch (error) {
      return respond({ error: { code: -32000, message: (error as Error).message.split('\n')[0] ?? '' } })
    }
  })
  return kit
}

/** The person presses Connect wallet (v2, the default) and the wallet scans the code: its URI from Copy. */
async function pair() {
  await expect(dapp.getByTestId('protocol-v2')).toBeChecked()
  await dapp.getByTestId('connect-button').click()
  await expect(modal(dapp)).toBeVisible()
  await dapp.getByRole('button', { name: 'Copy to clipboard' }).click()
  const uri = await dapp.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await wallet.pair({ uri })
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
}

const topic = () => Object.keys(wallet.getActiveSessions())[0] as string

test('v2 by default: connect; the panel says WalletConnect v2 and the relay’s state', async () => {
  await dapp.goto(product.origin)
  await pair()
  await expect(dapp.getByTestId('wallet-name')).toHaveText('WalletKit')
  await expect(dapp.getByTestId('session-protocol')).toHaveText('WalletConnect v2')
  await expect(dapp.getByText('Relay', { exact: true })).toBeVisible()
  await expect(dapp.getByTestId('bridge-state')).toHaveText('Connected')
})

test('sign in, sign a message and typed data → verified', async () => {
  await dapp.getByTestId('sign-in-button').click()
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  await dapp.getByTestId('sign-typed-data-button').click()
  await expect(dapp.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
})

test('send 0.01 ETH → included in a block, confirmations counting', async () => {
  await dapp.getByTestId('payment-amount').fill('0.01')
  await dapp.getByTestId('payment-send-button').click()
  await expect(dapp.getByTestId('payment-status')).toHaveText(/block \d+ · \d+ confirmations?$/, {
    timeout: 20_000,
  })
})

test('the wallet refuses a request → a plain message', async () => {
  refuse = true
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-error')).toHaveText('The wallet rejected the request.')
  refuse = false
})

test('switch to a chain the wallet did not approve → says how to get it; the chain stays', async () => {
  // The card speaks of the session's approved chains, not of a wallet that decides.
  await expect(dapp.getByTestId('switch-chain')).toContainText(
    'Switches among the chains the wallet approved when it connected, without asking it. For another chain, disconnect and connect again to approve it.',
  )
  await dapp.getByTestId('switch-chain-select').selectOption('1')
  await dapp.getByTestId('switch-chain-button').click()
  await expect(dapp.getByTestId('switch-chain-error')).toHaveText(
    'The wallet did not approve this chain when it connected, so the app stays on the current one. To use it, disconnect and connect again, approving that chain in the wallet.',
  )
  await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', String(ANVIL_CHAIN_ID))
  await expect(dapp.getByTestId('switch-chain-result')).toHaveCount(0)
  await expect(dapp.getByTestId('chain-mismatch')).toHaveCount(0)
})

test('a reload restores the v2 session, which still signs', async () => {
  await dapp.reload()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('session-protocol')).toHaveText('WalletConnect v2')
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
})

test('disconnect from the web app → the wallet sees the session end', async () => {
  const ended = new Promise((resolve) => wallet.on('session_delete', resolve))
  await dapp.getByTestId('disconnect-button').click()
  await expect(dapp.getByTestId('notice')).toHaveText('You disconnected the wallet.')
  await ended
})

test('the wallet disconnects → the web app shows it', async () => {
  await pair()
  await wallet.disconnectSession({ topic: topic(), reason: { code: 6000, message: 'User disconnected.' } })
  await expect(dapp.getByTestId('notice')).toHaveText(
    'The wallet disconnected. Press Connect wallet to pair again.',
  )
  await expect(dapp.getByTestId('connect-button')).toBeVisible()
})
