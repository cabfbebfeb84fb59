// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { sendRequiredNamespaces } from '@pairlink/test-kit'
import { expect, type Page, test } from '@playwright/test'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, toHex, verifyMessage } from 'viem'
import { ACCOUNT_0 } from './support/accounts.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, disconnectWallet, pasteUri } from './support/walletPage.js'

// The published @walletconnect/sign-client 2.25.0 as the dapp (in this process) ↔ the reference wallet page in
// Chromium, through the product server's relay: the link's version, the proposal, a signature, a reload,
// disconnect both ways, and a proposal the wallet must refuse.
test.describe.configure({ mode: 'serial' })

type Dapp = Awaited<ReturnType<typeof SignClient.init>>
let product: Product
let dapp: Dapp
let wallet: Page
let topic: string

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  product = await startProduct()
  dapp = await SignClient.init({
    relayUrl: product.origin.replace(/^http/, 'ws'),
    projectId: '0123456789abcdef0123456789abcdef',
    customStoragePrefix: `e2e-dapp-${randomUUID()}`,
    logger: 'silent',
    metadata: { name: 'v2 e2e dapp', description: 'sign-client', url: 'https://dapp.test', icons: [] },
  })
  wallet = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  dapp?.core.heartbeat.stop()
  await dapp?.core.relayer.transportClose().catch(() => {})
  await product?.stop()
})

async function sign(text: string): Promise<void> {
  const message = toHex(text)
  const signature = dapp.request<Hex>({
    topic,
    chainId: 'eip155:31337',
    request: { method: 'personal_sign', params: [message, ACCOUNT_0] },
  })
  await answerRequest(wallet, 'personal_sign', 'approve')
  expect(
    await verifyMessage({ address: ACCOUNT_0, message: { raw: message }, signature: await signature }),
  ).toBe(true)
}

/**
 * The dapp's proposal, with `approval()` already waiting: the SDK (createDelayedPromise) drops a settle that arrives
 * before approval() is first called, and on a local relay it arrives as the Approve click returns.
 */
async function propose() {
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: { chains: ['eip155:31337', 'eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] },
    },
  })
  if (!uri) throw new Error('no pairing URI')
  const settled = approval()
  settled.catch(() => {})
  return { uri, settled }
}

test('a v2 link: its version and the proposal shown before Approve; a signature verified', async () => {
  const { uri, settled } = await propose()
  await wallet.goto(`${product.origin}/wallet`)
  await wallet.getByTestId('uri-input').fill(uri)
  await expect(wallet.getByTestId('protocol-version')).toHaveText('WalletConnect v2')
  await pasteUri(wallet, product.origin, uri)
  await expect(wallet.getByTestId('requested-chain')).toHaveText(['Anvil dev chain (31337)', 'Ethereum (1)'])
  await expect(wallet.getByTestId('requested-method')).toHaveText(['personal_sign'])
  await wallet.getByTestId('approve-session').click()
  const session = await settled
  topic = session.topic
  expect(session.namespaces.eip155?.accounts).toContain(`eip155:31337:${ACCOUNT_0}`)
  await expect(wallet.getByTestId('session-card')).toBeVisible()
  await sign('Hello over v2')
})

test('after a reload the session is restored and still answers', async () => {
  await wallet.reload()
  await expect(wallet.getByTestId('status')).toHaveText('Session with v2 e2e dapp restored.')
  await expect(wallet.getByTestId('protocol-version')).toHaveText('WalletConnect v2')
  await sign('after a reload')
})

test('the dapp disconnects: the wallet says so', async () => {
  await dapp.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
  await expect(wallet.getByTestId('status')).toHaveText('v2 e2e dapp disconnected the session.')
  await expect(wallet.getByTestId('session-card')).toHaveCount(0)
})

test("the wallet disconnects: the dapp's session ends", async () => {
  const { uri, settled } = await propose()
  await pasteUri(wallet, product.origin, uri)
  await approveSession(wallet)
  const session = await settled
  const deleted = new Promise<string>((resolve) => dapp.once('session_delete', ({ topic }) => resolve(topic)))
  await disconnectWallet(wallet)
  expect(await deleted).toBe(session.topic)
  expect(dapp.session.keys).not.toContain(session.topic)
})

test('a proposal that requires a chain the wallet lacks: the page says why and refuses it with 5100', async () => {
  // As SDKs before 2.19 send them (2.25 itself folds required namespaces into optional ones).
  sendRequiredNamespaces(dapp, { eip155: { chains: ['eip155:999'], methods: ['personal_sign'], events: [] } })
  const { uri, settled } = await propose()
  await pasteUri(wallet, product.origin, uri)
  const reason = 'it requires the chain eip155:999, which this wallet does not support'
  await expect(wallet.getByTestId('session-refusal')).toHaveText(
    `This wallet cannot approve it: ${reason}. Reject to tell the dapp why.`,
  )
  await expect(wallet.getByTestId('approve-session')).toBeDisabled()
  await wallet.getByTestId('reject-session').click()
  await expect(settled).rejects.toMatchObject({ code: 5100, message: 'Unsupported chains. eip155:999' })
  await expect(wallet.getByTestId('status')).toHaveText(
    `Refused the session request from v2 e2e dapp: ${reason}.`,
  )
  await expect(wallet.getByTestId('session-request')).toHaveCount(0)
})
