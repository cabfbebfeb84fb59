import { type BrowserContext, devices, expect, test } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { chooseProtocol, modal, scanQr, screenshot } from './support/dapp.js'
import { inHouseWalletsFile, PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

let product: Product
const contexts: BrowserContext[] = []
test.beforeAll(async () => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  // Pairlink Wallet and an in-house wallet: the phone's list, not the single link one wallet gets.
  product = await startProduct({ WALLETS_FILE: inHouseWalletsFile() })
})
test.afterAll(async () => {
  for (const context of contexts) await context.close()
  await product?.stop()
})

test('iPhone: tapping the reference wallet in the list connects; sign, send and disconnect never take the dapp tab away', async ({
  browser,
}) => {
  const { defaultBrowserType: _, ...iPhone } = devices['iPhone 13']
  const phone = await browser.newContext({ ...iPhone })
  contexts.push(phone)
  const dapp = await phone.newPage()
  await dapp.goto(product.origin)
  await screenshot(dapp, 'phone-connect', { publish: true })
  await chooseProtocol(dapp, 1)
  await dapp.getByTestId('connect-button').tap()
  await expect(modal(dapp)).toBeVisible()

  const first = modal(dapp).locator('a.wallet').first()
  await expect(first).toContainText('Pairlink')
  const href = (await first.getAttribute('href')) ?? ''
  expect(href.startsWith(`${product.origin}/wallet/wc?uri=wc%3A`)).toBe(true)
  await screenshot(dapp, 'phone-wallet-list', { publish: true })

  const navigations: string[] = []
  phone.on('request', (request) => {
    if (request.isNavigationRequest()) navigations.push(request.url())
  })
  const [wallet] = await Promise.all([phone.waitForEvent('page'), first.tap()])
  await expect(wallet.getByTestId('session-request')).toBeVisible({ timeout: 15_000 })
  expect(navigations).toContain(href)
  await screenshot(wallet, 'phone-wallet-session-request')
  await approveSession(wallet)
  await dapp.bringToFront()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('block-number')).toHaveText(/#\d+/)
  // Nothing may stick out sideways on a phone.
  const overflow = await dapp.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await screenshot(dapp, 'phone-account', { publish: true })

  // From here on the dapp's tab must stay the dapp: no navigation of its page, and no further tab either (the
  // wallet acts in the page the tap opened). Today's failure mode, a redirect to /wallet/wc, would show up in both.
  const dappUrl = dapp.url()
  const dappNavigations: string[] = []
  dapp.on('framenavigated', (frame) => {
    if (frame === dapp.mainFrame()) dappNavigations.push(frame.url())
  })
  const opened: string[] = []
  phone.on('page', (page) => opened.push(page.url()))
  const stayed = () => {
    expect(dappNavigations).toEqual([])
    expect(opened).toEqual([])
    expect(dapp.url()).toBe(dappUrl)
  }

  await dapp.getByTestId('sign-message-input').fill('Pairlink on a phone')
  await dapp.getByTestId('sign-message-button').tap()
  await answerRequest(wallet, 'personal_sign', 'approve')
  await dapp.bringToFront()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  stayed()

  await dapp.getByTestId('payment-amount').fill('0.01')
  await dapp.getByTestId('payment-send-button').tap()
  await answerRequest(wallet, 'eth_sendTransaction', 'approve')
  await dapp.bringToFront()
  await expect(dapp.getByTestId('payment-status')).toHaveText(/^In block \d+/, { timeout: 20_000 })
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  stayed()
  await screenshot(dapp, 'phone-signed-and-paid')

  await dapp.getByTestId('disconnect-button').tap()
  await expect(dapp.getByTestId('notice')).toHaveText('You disconnected the wallet.')
  await expect(wallet.getByTestId('session-card')).toHaveCount(0, { timeout: 10_000 })
  await expect(dapp.getByTestId('connect-button')).toBeVisible()
  stayed()
})

test('a registry that fails to load → Something went wrong; the QR code still pairs', async ({ browser }) => {
  const desktop = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  contexts.push(desktop)
  const dapp = await desktop.newPage()
  await dapp.route('**/registry/wallets.json', (route) => route.abort())
  await dapp.goto(product.origin)
  await chooseProtocol(dapp, 1)
  await dapp.getByTestId('connect-button').click()
  await dapp.getByRole('tab', { name: 'Desktop' }).click()
  await expect(modal(dapp).getByText('Something went wrong')).toBeVisible()
  await screenshot(dapp, 'registry-error', { publish: true })

  await dapp.getByRole('tab', { name: 'QR Code' }).click()
  const uri = await scanQr(dapp)
  expect(uri).toMatch(/^wc:/)
  const wallet = await (await browser.newContext()).newPage()
  contexts.push(wallet.context())
  await pasteUri(wallet, product.origin, uri ?? '')
  await approveSession(wallet)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
})
