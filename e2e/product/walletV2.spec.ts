// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { MAIL_TYPED_DATA, sendRequiredNamespaces } from '@pairlink/test-kit'
import { expect, type Page, test } from '@playwright/test'
import { SignClient } from '@walletconnect/sign-client'
import {
  createPublicClient,
  type Hex,
  http,
  numberToHex,
  parseEther,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { ACCOUNT_0, ACCOUNT_1 } from './support/accounts.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, disconnectWallet, pasteUri } from './support/walletPage.js'

// The published @walletconnect/sign-client 2.25.0 as the dapp (in this process) ↔ the reference wallet page in
// Chromium, through the product server's relay: the link's version, the proposal, signatures (message, typed data),
// a payment on the dev chain, a refusal, the wallet's chain and account switches as the SDK's events, a reload,
// disconnect both ways, and a proposal the wallet must refuse.
test.describe.configure({ mode: 'serial' })

type Dapp = Awaited<ReturnType<typeof SignClient.init>>
let product: Product
let dapp: Dapp
let wallet: Page
let topic: string
/** The SDK's `session_event`s and `session_update`s on the session, as the dapp received them. */
const heard = {
  events: [] as { name: string; data: unknown; chainId: string }[],
  updates: [] as { chains: string[] | undefined; accounts: string[] | undefined }[],
  clear() {
    heard.events.length = 0
    heard.updates.length = 0
  },
}

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
  dapp.on('session_event', ({ topic: on, params }) => {
    if (on === topic) heard.events.push({ ...params.event, chainId: params.chainId })
  })
  dapp.on('session_update', ({ topic: on, params }) => {
    const { chains, accounts } = params.namespaces.eip155 ?? {}
    if (on === topic) heard.updates.push({ chains, accounts })
  })
  wallet = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  dapp?.core.heartbeat.stop()
  await dapp?.core.relayer.transportClose().catch(() => {})
  await product?.stop()
})

/** The dapp's request on the session, on the dev chain. */
const call = <result>(method: string, params: unknown[]) =>
  dapp.request<result>({ topic, chainId: 'eip155:31337', request: { method, params } })

/** personal_sign from `address`, approved on the wallet page; the signature verified. */
async function sign(text: string, address: Hex = ACCOUNT_0): Promise<void> {
  const message = toHex(text)
  const signature = call<Hex>('personal_sign', [message, address])
  await answerRequest(wallet, 'personal_sign', 'approve')
  expect(await verifyMessage({ address, message: { raw: message }, signature: await signature })).toBe(true)
}

const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']

/**
 * The dapp's proposal, with `approval()` already waiting: the SDK (createDelayedPromise) drops a settle that arrives
 * before approval() is first called, and on a local relay it arrives as the Approve click returns.
 */
async function propose() {
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: {
        chains: ['eip155:31337', 'eip155:1'],
        methods: METHODS,
        events: ['chainChanged', 'accountsChanged'],
      },
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
  await expect(wallet.getByTestId('requested-method')).toHaveText(METHODS)
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

test('typed data v4: the wallet page signs, viem verifies', async () => {
  const typed = call<Hex>('eth_signTypedData_v4', [ACCOUNT_0, JSON.stringify(MAIL_TYPED_DATA)])
  await answerRequest(wallet, 'eth_signTypedData_v4', 'approve')
  const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
  expect(
    await verifyTypedData({ ...MAIL_TYPED_DATA, types, address: ACCOUNT_0, signature: await typed }),
  ).toBe(true)
})

test('eth_sendTransaction: the wallet page sends it to the dev chain; the product’s RPC has it mined', async () => {
  const node = createPublicClient({ transport: http(product.rpcUrl) })
  const value = parseEther('0.02')
  const sent = call<Hex>('eth_sendTransaction', [
    { from: ACCOUNT_0, to: ACCOUNT_1, value: numberToHex(value) },
  ])
  await answerRequest(wallet, 'eth_sendTransaction', 'approve')
  const hash = await sent
  const receipt = await node.waitForTransactionReceipt({ hash, timeout: 20_000 })
  expect(receipt.status).toBe('success')
  const transaction = await node.getTransaction({ hash })
  expect(transaction).toMatchObject({ from: ACCOUNT_0.toLowerCase(), to: ACCOUNT_1.toLowerCase(), value })
  expect(transaction.chainId).toBe(31337)
})

test('the person rejects a request: the dapp’s promise rejects with 4001', async () => {
  const refused = call('personal_sign', [toHex('refuse me'), ACCOUNT_0])
  refused.catch(() => {})
  await answerRequest(wallet, 'personal_sign', 'reject')
  await expect(refused).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
})

test('the wallet page switches chain: chainChanged on the session; a chain it lacked is granted first', async () => {
  heard.clear()
  const chainSwitch = wallet.getByTestId('session-chain-switch')
  await chainSwitch.selectOption('1')
  await expect.poll(() => heard.events).toEqual([{ name: 'chainChanged', data: 1, chainId: 'eip155:1' }])
  expect(heard.updates).toEqual([])

  // OP Mainnet was not asked for: the wallet grants it (session_update), then moves to it.
  await chainSwitch.selectOption('10')
  await expect.poll(() => heard.events.length).toBe(2)
  expect(heard.events[1]).toEqual({ name: 'chainChanged', data: 10, chainId: 'eip155:10' })
  expect(heard.updates).toEqual([
    { chains: ['eip155:31337', 'eip155:1', 'eip155:10'], accounts: expect.any(Array) },
  ])
  expect(dapp.session.get(topic).namespaces.eip155?.chains).toContain('eip155:10')

  await chainSwitch.selectOption('31337')
  await expect
    .poll(() => heard.events.at(-1))
    .toEqual({ name: 'chainChanged', data: 31337, chainId: 'eip155:31337' })
})

test('the wallet page switches account: the session’s update and accountsChanged; the new account signs', async () => {
  heard.clear()
  await wallet.getByTestId('session-account-switch').selectOption('dev:1')
  await expect
    .poll(() => heard.events)
    .toEqual([{ name: 'accountsChanged', data: [ACCOUNT_1], chainId: 'eip155:31337' }])
  expect(heard.updates.at(-1)?.accounts).toContain(`eip155:31337:${ACCOUNT_1}`)
  expect(dapp.session.get(topic).namespaces.eip155?.accounts).not.toContain(`eip155:31337:${ACCOUNT_0}`)
  await sign('from the second account', ACCOUNT_1)

  await wallet.getByTestId('session-account-switch').selectOption('dev:0')
  await expect.poll(() => heard.events.at(-1)?.data).toEqual([ACCOUNT_0])
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
