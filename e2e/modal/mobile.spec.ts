import { devices, expect, type Page, test } from '@playwright/test'
import { decodeQr } from './support/qr.js'
import { startServer, URI } from './support/server.js'

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

// Chromium plays each phone (user agent, viewport, touch); `defaultBrowserType` would ask for WebKit.
const { defaultBrowserType: _iphone, ...iPhone } = devices['iPhone 13']
const { defaultBrowserType: _pixel, ...pixel } = devices['Pixel 7']

async function openModal(page: Page) {
  server.state.registryFailing = false
  await page.goto(`${server.url}/plain?uri=${encodeURIComponent(URI)}`)
  await page.locator('#opener').click()
}

const wallets = (page: Page) => page.locator('a.wallet')

test.describe('iPhone 13', () => {
  test.use(iPhone)

  test('iOS: opens on the wallet list, 57 wallets in 5 pages of 12', async ({ page }) => {
    await openModal(page)
    await expect(page.getByRole('tab', { name: 'Mobile' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByText('Choose your preferred wallet')).toBeVisible()
    await expect(wallets(page)).toHaveCount(12)
    await page.screenshot({ path: 'e2e/screenshots/modal-ios-list.png', animations: 'disabled' })
    const pages = page.locator('.pages button')
    await expect(pages).toHaveText(['1', '2', '3', '4', '5'])
    let total = 0
    for (let index = 1; index <= 5; index++) {
      await pages.nth(index - 1).click()
      await expect(pages.nth(index - 1)).toHaveAttribute('aria-current', 'page')
      total += await wallets(page).count()
    }
    expect(total).toBe(57)
    await expect(wallets(page)).toHaveCount(9)
  })

  test('iOS: search by name, No wallets found, clear', async ({ page }) => {
    await openModal(page)
    await page.locator('.pages button', { hasText: '3' }).click()
    const search = page.getByRole('searchbox', { name: 'Search' })
    await search.fill('rainbow')
    await expect(wallets(page)).toHaveCount(1)
    await expect(page.getByRole('link', { name: 'Rainbow' })).toHaveAttribute(
      'href',
      `https://rnbwapp.com/wc?uri=${encodeURIComponent(URI)}`,
    )
    await search.fill('no such wallet')
    await expect(page.getByText('No wallets found')).toBeVisible()
    await page.screenshot({ path: 'e2e/screenshots/modal-ios-search-empty.png', animations: 'disabled' })
    await search.fill('')
    await expect(wallets(page)).toHaveCount(12)
    await expect(page.locator('.pages button', { hasText: '1' })).toHaveAttribute('aria-current', 'page')
  })

  test('iOS: choosing a wallet stores WALLETCONNECT_DEEPLINK_CHOICE', async ({ page, context }) => {
    await openModal(page)
    const popup = context.waitForEvent('page')
    await page.getByRole('link', { name: 'Rainbow' }).click()
    await (await popup).close()
    expect(await page.evaluate(() => localStorage.getItem('WALLETCONNECT_DEEPLINK_CHOICE'))).toBe(
      JSON.stringify({ name: 'Rainbow', href: 'https://rnbwapp.com/wc' }),
    )
  })

  test('iOS: a failing registry shows Something went wrong with the QR tab beside it; retry recovers', async ({
    page,
  }) => {
    server.state.registryFailing = true
    await page.goto(`${server.url}/plain?uri=${encodeURIComponent(URI)}`)
    await page.locator('#opener').click()
    await expect(page.getByText('Something went wrong')).toBeVisible()
    await page.screenshot({ path: 'e2e/screenshots/modal-ios-error.png', animations: 'disabled' })
    server.state.registryFailing = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(wallets(page)).toHaveCount(12)
  })

  test('iOS: the QR tab decodes to the URI', async ({ page }) => {
    await openModal(page)
    await page.getByRole('tab', { name: 'QR Code' }).click()
    await page.screenshot({ path: 'e2e/screenshots/modal-ios-qr.png', animations: 'disabled' })
    expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(URI)
  })
})

test.describe('Pixel 7', () => {
  test.use(pixel)

  test('Android: one Connect button with the raw wc: link beside the QR tab; no registry fetch', async ({
    page,
  }) => {
    const before = server.state.registryRequests
    await openModal(page)
    await expect(page.getByText('Connect to Mobile Wallet')).toBeVisible()
    await expect(page.locator('#walletconnect-connect-button-Connect')).toHaveAttribute('href', URI)
    await page.screenshot({ path: 'e2e/screenshots/modal-android.png', animations: 'disabled' })
    await page.getByRole('tab', { name: 'QR Code' }).click()
    expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(URI)
    // Marker: the page's own fetch of the registry, sent after the modal's would have been, is counted; so a fetch
    // by the modal would have been counted too.
    expect(await page.evaluate(async () => (await fetch('/registry')).status)).toBe(200)
    await expect.poll(() => server.state.registryRequests).toBe(before + 1)
  })

  test('Android: the close button (touch)', async ({ page }) => {
    await openModal(page)
    await page.locator('#walletconnect-qrcode-close').tap()
    await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
    expect(await page.evaluate(() => window.pairlink.userCloses)).toBe(1)
  })
})
