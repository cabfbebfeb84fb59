import { AxeBuilder } from '@axe-core/playwright'
import { type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { expect, type Page, test } from '@playwright/test'
import { type Hex, parseEther, verifyMessage, verifyTypedData } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { DEV_PRIVATE_KEYS } from '../../apps/wallet/src/core/accounts.js'
import { type InjectedWalletOptions, injectWallets } from '../support/injectedWallet/injectWallets.js'
import { decodeQr } from './support/qr.js'
import { startServer, URI } from './support/server.js'

// The modal's browser wallets (EIP-6963) in Debian's Chromium, with real wallets: EIP-1193 providers on the
// reference wallet's signing core, injected before the page's scripts as extensions are, signing with anvil's dev
// keys and sending to an anvil started here.

let server: Awaited<ReturnType<typeof startServer>>
let anvil: Anvil
let otherChain: Anvil
test.beforeAll(async () => {
  server = await startServer()
  ;[anvil, otherChain] = await Promise.all([startAnvil(), startAnvil({ chainId: 1337 })])
})
test.afterAll(async () => {
  await Promise.all([server?.close(), anvil?.stop(), otherChain?.stop()])
})

const address = (index: number) => privateKeyToAddress(DEV_PRIVATE_KEYS[index] as Hex)
const FIRST = { name: 'Pairlink Test Wallet', rdns: 'org.pairlink.test', account: 1, color: '#0b7285' }
const SECOND = { name: 'Second Test Wallet', rdns: 'org.pairlink.second', account: 2, color: '#c2255c' }

async function inject(page: Page, wallets: InjectedWalletOptions[]) {
  return injectWallets(page.context(), {
    chains: { [anvil.chainId]: anvil.url, 1337: otherChain.url },
    chainId: anvil.chainId,
    wallets,
  })
}

async function openModal(page: Page) {
  await page.goto(`${server.url}/plain?${new URLSearchParams({ uri: URI, injected: '' })}`)
  await page.locator('#opener').click()
  await expect(page.getByRole('dialog', { name: 'Connect a wallet' })).toBeVisible()
}

const browserWallets = (page: Page) => page.getByRole('list', { name: 'Installed in this browser' })
const walletNames = (page: Page) => browserWallets(page).locator('.name').allTextContents()

/** Asks the wallet the modal handed over, in the page, as the app would. */
const ask = (page: Page, method: string, params?: unknown[]) =>
  page.evaluate(
    ({ method, params }) => {
      const wallet = window.pairlink.injected
      if (!wallet) throw new Error('no wallet was chosen')
      return wallet.provider.request(params ? { method, params } : { method })
    },
    { method, params },
  )

test('desktop: two announced wallets come first with their own names and icons; the chosen one really signs', async ({
  page,
}) => {
  const config = await inject(page, [FIRST, SECOND])
  await openModal(page)
  await expect(browserWallets(page).getByRole('button')).toHaveCount(2)
  expect(await walletNames(page)).toEqual([FIRST.name, SECOND.name])
  // Above the QR view and its tabs, which are as before.
  const listBox = await browserWallets(page).boundingBox()
  const tabsBox = await page.getByRole('tablist').boundingBox()
  expect(listBox && tabsBox && listBox.y + listBox.height <= tabsBox.y).toBe(true)
  await expect(page.getByRole('tab', { name: 'QR Code' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
  // Each icon is the wallet's own data URI, drawn.
  const icons = browserWallets(page).locator('img')
  expect(await icons.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))).toEqual(
    config.wallets.map(({ icon }) => icon),
  )
  expect(
    await icons.evaluateAll((images) =>
      images.every((image) => (image as HTMLImageElement).naturalWidth > 0),
    ),
  ).toBe(true)
  await page.screenshot({ path: 'e2e/screenshots/modal-desktop-injected.png', animations: 'disabled' })

  await browserWallets(page).getByRole('button', { name: SECOND.name }).click()
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await page.evaluate(() => window.pairlink.userCloses)).toBe(0)
  expect(await page.evaluate(() => window.pairlink.injected?.info)).toEqual(
    config.wallets[1] && {
      uuid: config.wallets[1].uuid,
      name: SECOND.name,
      icon: config.wallets[1].icon,
      rdns: SECOND.rdns,
    },
  )

  expect(await ask(page, 'eth_accounts')).toEqual([])
  expect(await ask(page, 'eth_requestAccounts')).toEqual([address(SECOND.account)])
  const message = 'Sign in to Pairlink with a browser wallet'
  const raw = `0x${Buffer.from(message).toString('hex')}`
  const signature = (await ask(page, 'personal_sign', [raw, address(SECOND.account)])) as Hex
  expect(await verifyMessage({ address: address(SECOND.account), message, signature })).toBe(true)
  // It was that wallet, not the other one, that signed.
  const asked = await page.evaluate(() =>
    Object.fromEntries(
      Object.entries(window.injectedWallets).map(([rdns, { requests }]) => [rdns, requests]),
    ),
  )
  expect(asked[SECOND.rdns]).toContain('personal_sign')
  expect(asked[FIRST.rdns]).toEqual([])
})

test('desktop: the chosen wallet signs typed data v4, sends a transaction mined on anvil, and says when it switches', async ({
  page,
}) => {
  await inject(page, [FIRST, SECOND])
  await openModal(page)
  await browserWallets(page).getByRole('button', { name: FIRST.name }).click()
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  const from = address(FIRST.account)
  expect(await ask(page, 'eth_requestAccounts')).toEqual([from])
  expect(await ask(page, 'eth_chainId')).toBe('0x7a69')

  const typedData = {
    domain: { name: 'Pairlink', version: '1', chainId: 31337 },
    types: { Greeting: [{ name: 'text', type: 'string' }] },
    primaryType: 'Greeting',
    message: { text: 'Hello from a browser wallet' },
  } as const
  const typedSignature = (await ask(page, 'eth_signTypedData_v4', [from, JSON.stringify(typedData)])) as Hex
  expect(await verifyTypedData({ address: from, signature: typedSignature, ...typedData })).toBe(true)

  const to = address(5)
  const before = BigInt((await rpc(anvil.url, 'eth_getBalance', [to, 'latest'])) as string)
  const hash = (await ask(page, 'eth_sendTransaction', [
    { from, to, value: `0x${parseEther('1.5').toString(16)}` },
  ])) as Hex
  await expect
    .poll(
      async () =>
        ((await rpc(anvil.url, 'eth_getTransactionReceipt', [hash])) as { status?: string } | null)?.status,
    )
    .toBe('0x1')
  // Read back through the wallet (forwarded to its node) and straight from the chain.
  const after = BigInt((await ask(page, 'eth_getBalance', [to, 'latest'])) as string)
  expect(after - before).toBe(parseEther('1.5'))
  expect(BigInt((await rpc(anvil.url, 'eth_getBalance', [to, 'latest'])) as string)).toBe(after)

  // The wallet's own switches reach the app as EIP-1193 events.
  await page.evaluate(() => {
    const events: unknown[][] = []
    Object.assign(window, { events })
    const provider = window.pairlink.injected?.provider
    provider?.on?.('accountsChanged', (accounts: string[]) => events.push(['accountsChanged', accounts]))
    provider?.on?.('chainChanged', (chainId: string) => events.push(['chainChanged', chainId]))
  })
  expect(await ask(page, 'wallet_switchEthereumChain', [{ chainId: '0x539' }])).toBeNull()
  expect(await ask(page, 'eth_chainId')).toBe('0x539')
  // Reads follow the chain: the other anvil answers.
  expect(await ask(page, 'net_version')).toBe('1337')
  expect(await ask(page, 'eth_blockNumber')).toBe(await rpc(otherChain.url, 'eth_blockNumber'))
  const unknown = await page.evaluate(() =>
    window.pairlink.injected?.provider
      .request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })
      .catch((error: { code: number }) => error.code),
  )
  expect(unknown).toBe(4902)
  await page.evaluate((rdns) => window.injectedWallets[rdns]?.setAccount(6), FIRST.rdns)
  expect(await page.evaluate(() => (window as unknown as { events: unknown[] }).events)).toEqual([
    ['chainChanged', '0x539'],
    ['accountsChanged', [address(6)]],
  ])
})

test('desktop: the last wallet used is listed first after a reload', async ({ page }) => {
  await inject(page, [FIRST, SECOND])
  await openModal(page)
  expect(await walletNames(page)).toEqual([FIRST.name, SECOND.name])
  await browserWallets(page).getByRole('button', { name: SECOND.name }).click()
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  await page.reload()
  await page.locator('#opener').click()
  await expect(browserWallets(page).getByRole('button')).toHaveCount(2)
  expect(await walletNames(page)).toEqual([SECOND.name, FIRST.name])
})

test('desktop: with none announced, the legacy window.ethereum is offered and connects', async ({ page }) => {
  await inject(page, [{ name: 'Old Wallet', rdns: 'org.pairlink.legacy', account: 3, legacy: {} }])
  await openModal(page)
  await expect(browserWallets(page).getByRole('button')).toHaveCount(1)
  expect(await walletNames(page)).toEqual(['Browser wallet'])
  // No icon of its own: its monogram.
  await expect(browserWallets(page).locator('img')).toHaveCount(0)
  await browserWallets(page).getByRole('button', { name: 'Browser wallet' }).click()
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await page.evaluate(() => window.pairlink.injected?.info.rdns)).toBe('window.ethereum')
  expect(
    await page.evaluate(
      () => window.pairlink.injected?.provider === (window as { ethereum?: unknown }).ethereum,
    ),
  ).toBe(true)
  expect(await ask(page, 'eth_requestAccounts')).toEqual([address(3)])
  const message = 'An old wallet signs too'
  const signature = (await ask(page, 'personal_sign', [
    `0x${Buffer.from(message).toString('hex')}`,
    address(3),
  ])) as Hex
  expect(await verifyMessage({ address: address(3), message, signature })).toBe(true)
})

test('desktop: no browser wallet at all — no section, the QR view as before', async ({ page }) => {
  await openModal(page)
  await expect(page.getByRole('tab', { name: 'QR Code' })).toHaveAttribute('aria-selected', 'true')
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(URI)
  await expect(browserWallets(page)).toHaveCount(0)
  await expect(page.locator('#walletconnect-wrapper .injected')).toHaveCount(0)
  await expect(page.getByRole('tab')).toHaveText(['QR Code', 'Desktop'])
})

test('accessibility: the browser wallets pass axe, and the keyboard reaches them first', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await inject(page, [FIRST, SECOND])
  await openModal(page)
  await expect(browserWallets(page).getByRole('button')).toHaveCount(2)
  const results = await new AxeBuilder({ page }).include('#walletconnect-wrapper').analyze()
  expect(results.violations.map(({ id }) => id)).toEqual([])
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(browserWallets(page).getByRole('button', { name: FIRST.name })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await page.evaluate(() => window.pairlink.injected?.info.rdns)).toBe(FIRST.rdns)
})
