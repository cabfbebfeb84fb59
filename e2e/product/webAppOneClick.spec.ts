import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNT_0 } from './support/accounts.js'
import { modal } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'

// One-click auth from the web app (v2): Connect asks for the session and the sign-in together. WalletKit 1.6.0 (in
// this process) answering session_authenticate → one approval, connected and signed in, still so after a reload;
// WalletKit without one-click auth → connected from the same scan, then the ordinary Sign in; the reference wallet
// page → one approval. The product's own server, relay and dev chain; real Chromium.

type Kit = Awaited<ReturnType<typeof WalletKit.init>>
// The SDK's own shapes of a request and a CACAO (WalletKit's nested @walletconnect/types).
type SdkAuthPayload = Parameters<Kit['formatAuthMessage']>[0]['request']
type SdkCacao = Parameters<Kit['approveSessionAuthenticate']>[0]['auths'][number]
type Core = Awaited<ReturnType<typeof SignClient.init>>['core']

const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const projectId = '0123456789abcdef0123456789abcdef'
const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']
const cores: Core[] = []
let product: Product

// The published SDK's helpers (@walletconnect/utils 2.25.0, as sign-client resolves it), as a WalletKit wallet builds
// its CACAOs.
const sdkUtils = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
  '@walletconnect/utils',
) as {
  populateAuthPayload(p: {
    authPayload: SdkAuthPayload
    chains: string[]
    methods: string[]
  }): SdkAuthPayload & {
    chains: string[]
  }
  buildAuthObject(payload: SdkAuthPayload, signature: { t: string; s: string }, iss: string): SdkCacao
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  // Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
  process.env.DISABLE_GLOBAL_CORE = 'true'
  product = await startProduct()
})

test.afterAll(async () => {
  for (const core of cores.splice(0)) {
    core.heartbeat.stop()
    await core.relayer.transportClose().catch(() => {})
  }
  await product?.stop()
})

/**
 * WalletKit on the product's relay with dev account 0 on the dev chain. `oneClick`: it listens to
 * `session_authenticate` and approves with one CACAO per supported chain, as WalletConnect's docs show; without it, it
 * only answers proposals. `asked` lists the session requests it answered (personal_sign for the ordinary sign-in).
 */
async function createWallet(oneClick: boolean) {
  const relayUrl = product.origin.replace(/^http/, 'ws')
  const options = { relayUrl, projectId, logger: 'silent' }
  const probe = await SignClient.init({ ...options, customStoragePrefix: `probe-${randomUUID()}` })
  cores.push(probe.core)
  const CoreClass = probe.core.constructor as new (options: Record<string, unknown>) => Core
  const core = new CoreClass({ ...options, customStoragePrefix: `walletkit-${randomUUID()}` })
  cores.push(core)
  const kit: Kit = await WalletKit.init({
    core: core as Parameters<typeof WalletKit.init>[0]['core'],
    metadata: { name: 'WalletKit', description: 'wallet', url: 'https://walletkit.example', icons: [] },
  })
  const chains = [`eip155:${ANVIL_CHAIN_ID}`]
  const asked: string[] = []
  const proposals: number[] = []
  kit.on('session_proposal', ({ id }) => {
    proposals.push(id)
    const accounts = chains.map((chain) => `${chain}:${account.address}`)
    const namespaces = {
      eip155: { chains, accounts, methods: METHODS, events: ['chainChanged', 'accountsChanged'] },
    }
    kit.approveSession({ id, namespaces }).catch(() => {})
  })
  if (oneClick)
    kit.on('session_authenticate', async ({ id, params }) => {
      const authPayload = sdkUtils.populateAuthPayload({
        authPayload: params.authPayload,
        chains,
        methods: METHODS,
      })
      const auths: SdkCacao[] = []
      for (const chain of authPayload.chains) {
        const iss = `did:pkh:${chain}:${account.address}`
        const message = kit.formatAuthMessage({ request: authPayload, iss })
        const s = await account.signMessage({ message })
        auths.push(sdkUtils.buildAuthObject(authPayload, { t: 'eip191', s }, iss))
      }
      await kit.approveSessionAuthenticate({ id, auths })
    })
  kit.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown[] }
    asked.push(method)
    const result = await account.signMessage({ message: { raw: args[0] as Hex } })
    await kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  return { kit, asked, proposals }
}

/** A fresh browser (no cookie, no stored session) on the web app, v2 by default. */
async function openDapp(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  const dapp = await context.newPage()
  await dapp.goto(product.origin)
  await expect(dapp.getByTestId('protocol-v2')).toBeChecked()
  return dapp
}

/** The person presses Connect wallet; the pairing URI as Copy gives it (the one QR code a wallet would scan). */
async function connect(dapp: Page): Promise<string> {
  await expect(dapp.getByTestId('one-click-intro')).toContainText(
    'Approving the connection in your wallet also signs you in',
  )
  await dapp.getByTestId('connect-button').click()
  await expect(modal(dapp)).toBeVisible()
  await dapp.getByRole('button', { name: 'Copy to clipboard' }).click()
  const uri = await dapp.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*methods=wc_sessionAuthenticate/)
  return uri
}

const me = async (dapp: Page) => (await dapp.request.get(`${product.origin}/api/me`)).json()

test('WalletKit with one-click auth: one approval → connected and signed in; a reload keeps both', async ({
  browser,
}) => {
  const { kit, asked, proposals } = await createWallet(true)
  const dapp = await openDapp(browser)
  await kit.pair({ uri: await connect(dapp) })
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('notice')).toHaveText(`Connected to WalletKit and signed in as ${ACCOUNT_0}.`)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await expect(dapp.getByTestId('sign-in-address')).toHaveText(ACCOUNT_0)
  // No proposal was answered and no signature asked for afterwards: the CACAO was the sign-in.
  expect(proposals).toEqual([])
  expect(asked).toEqual([])
  expect(await me(dapp)).toMatchObject({ signedIn: true, address: ACCOUNT_0, chainId: ANVIL_CHAIN_ID })

  await dapp.reload()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('session-protocol')).toHaveText('WalletConnect v2')
  await expect(dapp.getByTestId('wallet-name')).toHaveText('WalletKit')
  await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', String(ANVIL_CHAIN_ID))
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  // The session answers requests after the reload as any other.
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  expect(asked).toEqual(['personal_sign'])
  await dapp.context().close()
})

test('WalletKit without one-click auth: connected from the same scan, signed out; Sign in works as before', async ({
  browser,
}) => {
  const { kit, asked, proposals } = await createWallet(false)
  const dapp = await openDapp(browser)
  await kit.pair({ uri: await connect(dapp) })
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('notice')).toHaveText('Connected to WalletKit.')
  expect(proposals).toHaveLength(1)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
  expect(await me(dapp)).toEqual({ signedIn: false })
  await dapp.getByTestId('sign-in-button').click()
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  expect(asked).toEqual(['personal_sign'])
  await dapp.context().close()
})

test('the reference wallet page: Approve and sign in → the web app is connected and signed in', async ({
  browser,
}) => {
  const dapp = await openDapp(browser)
  const uri = await connect(dapp)
  const wallet = await (await browser.newContext()).newPage()
  await wallet.goto(`${product.origin}/wallet`)
  await wallet.getByTestId('uri-input').fill(uri)
  await wallet.getByTestId('pair-button').click()
  const prompt = wallet.getByTestId('auth-request')
  await expect(prompt).toBeVisible({ timeout: 15_000 })
  await expect(prompt.getByTestId('auth-message')).toContainText(
    `${new URL(product.origin).host} wants you to sign in with your Ethereum account:\n${ACCOUNT_0}\n\nSign in to Pairlink.`,
  )
  await prompt.getByTestId('approve-auth').click()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await expect(dapp.getByTestId('notice')).toContainText('and signed in as')
  await dapp.reload()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in', {
    timeout: 15_000,
  })
  await wallet.context().close()
  await dapp.context().close()
})
