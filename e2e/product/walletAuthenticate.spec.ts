// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, toHex, verifyMessage } from 'viem'
import { ACCOUNT_0 } from './support/accounts.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, disconnectWallet } from './support/walletPage.js'

// One-click auth (wc_sessionAuthenticate): the published @walletconnect/sign-client 2.25.0's `authenticate()` (in
// this process) ↔ the reference wallet page in Chromium, through the product server's relay. The page shows the
// message as signed and the ReCap in words; Approve → the dapp gets CACAOs that verify and a session that answers;
// Reject → the dapp's response() rejects.
test.describe.configure({ mode: 'serial' })

type Dapp = Awaited<ReturnType<typeof SignClient.init>>
let product: Product
let dapp: Dapp
let wallet: Page

/** The SDK's own SIWE text of a CACAO (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it). */
const sdk = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
  '@walletconnect/utils',
) as { formatMessage(payload: object, iss: string): string }

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  product = await startProduct()
  dapp = await SignClient.init({
    relayUrl: product.origin.replace(/^http/, 'ws'),
    projectId: '0123456789abcdef0123456789abcdef',
    customStoragePrefix: `e2e-auth-dapp-${randomUUID()}`,
    logger: 'silent',
    metadata: { name: 'v2 auth dapp', description: 'sign-client', url: 'https://dapp.test', icons: [] },
  })
  wallet = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  dapp?.core.heartbeat.stop()
  await dapp?.core.relayer.transportClose().catch(() => {})
  await product?.stop()
})

/** The dapp asks to connect and sign in; its `response()` is already waiting (the SDK drops an early answer). */
async function authenticate() {
  const { uri, response } = await dapp.authenticate({
    chains: ['eip155:31337'],
    domain: 'dapp.test',
    uri: 'https://dapp.test/login',
    nonce: randomUUID().replaceAll('-', ''),
    statement: 'Sign in to the e2e dapp',
    methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_getCallsStatus'],
  })
  const answered = response()
  answered.catch(() => {})
  return { uri, response: answered }
}

/** Pastes the link into the wallet page and waits for its sign-in prompt. */
async function paste(uri: string) {
  await wallet.goto(`${product.origin}/wallet`)
  await wallet.getByTestId('uri-input').fill(uri)
  await wallet.getByTestId('pair-button').click()
  await expect(wallet.getByTestId('auth-request')).toBeVisible({ timeout: 15_000 })
}

test('the prompt shows the message and the ReCap in words; Approve → CACAOs that verify, and a session', async () => {
  const { uri, response } = await authenticate()
  await paste(uri)
  const prompt = wallet.getByRole('region', { name: 'Connect and sign in' })
  await expect(prompt.getByTestId('auth-summary')).toHaveText('v2 auth dapp asks you to connect and sign in.')
  const message = prompt.getByTestId('auth-message')
  await expect(message).toContainText(
    `dapp.test wants you to sign in with your Ethereum account:\n${ACCOUNT_0}`,
  )
  await expect(message).toContainText('Chain ID: 31337')
  await expect(prompt.getByTestId('auth-recap')).toHaveText([
    'Send transactions (eth_sendTransaction)',
    'Sign typed data (eth_signTypedData_v4)',
    'Sign messages (personal_sign)',
    'wallet_getCallsStatus — not supported, not granted',
  ])
  await expect(prompt.getByTestId('auth-chain')).toHaveText(['Anvil dev chain (31337)'])
  const shown = await message.textContent()
  // As every wallet screen (accessibility.spec.ts): no axe violation, no sideways scroll, at a phone's width too.
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await wallet.setViewportSize(size)
    const { violations } = await new AxeBuilder({ page: wallet }).analyze()
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    expect(
      await wallet.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0)
  }

  await prompt.getByRole('button', { name: 'Approve and sign in' }).click()
  const { session, auths } = await response
  expect(auths).toHaveLength(1)
  const [cacao] = auths ?? []
  const iss = `did:pkh:eip155:31337:${ACCOUNT_0}`
  expect(cacao?.p.iss).toBe(iss)
  const signed = sdk.formatMessage(cacao?.p ?? {}, iss)
  // What the person read is exactly what was signed, and the unsupported method was not granted.
  expect(signed).toBe(shown)
  expect(signed).not.toContain('wallet_getCallsStatus')
  expect(await verifyMessage({ address: ACCOUNT_0, message: signed, signature: cacao?.s.s as Hex })).toBe(
    true,
  )
  expect(session?.namespaces.eip155?.accounts).toEqual([`eip155:31337:${ACCOUNT_0}`])
  await expect(wallet.getByTestId('session-card')).toBeVisible()
  await expect(wallet.getByTestId('status')).toHaveText('Connected to v2 auth dapp and signed in.')

  const text = toHex('after one-click auth')
  const signature = dapp.request<Hex>({
    topic: session?.topic as string,
    chainId: 'eip155:31337',
    request: { method: 'personal_sign', params: [text, ACCOUNT_0] },
  })
  await answerRequest(wallet, 'personal_sign', 'approve')
  expect(
    await verifyMessage({ address: ACCOUNT_0, message: { raw: text }, signature: await signature }),
  ).toBe(true)

  // The wallet ends it as any session: the dapp hears it.
  const deleted = new Promise<string>((resolve) => dapp.once('session_delete', ({ topic }) => resolve(topic)))
  await disconnectWallet(wallet)
  expect(await deleted).toBe(session?.topic)
})

test('Reject, by keyboard → the dapp’s response() rejects (5000) and the page says so', async () => {
  const { uri, response } = await authenticate()
  await paste(uri)
  await wallet.getByTestId('reject-auth').focus()
  await wallet.keyboard.press('Enter')
  // The SDK rejects with the wallet's message alone.
  await expect(response).rejects.toBe('User rejected.')
  await expect(wallet.getByTestId('status')).toHaveText('You rejected the sign-in request from v2 auth dapp.')
  await expect(wallet.getByTestId('auth-request')).toHaveCount(0)
})
