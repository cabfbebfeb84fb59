import { expect, test } from '@playwright/test'
import { decodeQr } from './support/qr.js'
import { startServer, URI } from './support/server.js'

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})
test.beforeEach(async ({ page }) => {
  server.state.registryFailing = false
  await page.goto(`${server.url}/plain?uri=${encodeURIComponent(URI)}`)
  await page.locator('#opener').click()
})

const dialog = (page: import('@playwright/test').Page) =>
  page.getByRole('dialog', { name: 'Connect a wallet' })
const closes = (page: import('@playwright/test').Page) => page.evaluate(() => window.pairlink.userCloses)

test('desktop: QR view — the QR decodes to exactly the URI', async ({ page }) => {
  await expect(page.locator('#walletconnect-qrcode-text')).toHaveText(
    'Scan QR code with a WalletConnect-compatible wallet',
  )
  await expect(page.getByRole('tab', { name: 'QR Code' })).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: 'e2e/screenshots/modal-desktop-qr.png', animations: 'disabled' })
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(URI)
})

test('desktop: copy, then read the clipboard back', async ({ page }) => {
  await page.getByRole('button', { name: 'Copy to clipboard' }).click()
  await expect(page.getByText('Copied to clipboard!')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(URI)
  await expect(page.getByText('Copied to clipboard!')).toHaveCount(0, { timeout: 3000 })
})

test('desktop: the Desktop tab lists desktop wallets', async ({ page }) => {
  await page.getByRole('tab', { name: 'Desktop' }).click()
  await expect(page.locator('a.wallet')).toHaveCount(6)
  await expect(page.getByRole('link', { name: 'Ledger Live' })).toHaveAttribute(
    'href',
    `ledgerlive://wc?uri=${encodeURIComponent(URI)}`,
  )
  await page.screenshot({ path: 'e2e/screenshots/modal-desktop-links.png', animations: 'disabled' })
})

test('desktop: styles are isolated from the host page both ways', async ({ page }) => {
  const text = page.locator('#walletconnect-qrcode-text')
  expect(await text.evaluate((el) => getComputedStyle(el).fontSize)).not.toBe('40px')
  expect(await text.evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(255, 0, 0)')
  await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
  expect(await page.locator('#outside').evaluate((el) => getComputedStyle(el).fontSize)).toBe('40px')
})

test('desktop: a failing registry shows Something went wrong, the QR stays reachable, retry recovers', async ({
  page,
}) => {
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toHaveCount(0)
  server.state.registryFailing = true
  await page.locator('#opener').click()
  await page.getByRole('tab', { name: 'Desktop' }).click()
  await expect(page.getByText('Something went wrong')).toBeVisible()
  await page.screenshot({ path: 'e2e/screenshots/modal-desktop-error.png', animations: 'disabled' })
  await page.getByRole('tab', { name: 'QR Code' }).click()
  await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
  await page.getByRole('tab', { name: 'Desktop' }).click()
  server.state.registryFailing = false
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.locator('a.wallet')).toHaveCount(6)
})

test('desktop: Escape closes after the fade and calls onUserClose once', async ({ page }) => {
  await page.keyboard.press('Escape')
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await closes(page)).toBe(1)
  await expect(page.locator('#opener')).toBeFocused()
})

test('desktop: the close button', async ({ page }) => {
  await page.locator('#walletconnect-qrcode-close').click()
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await closes(page)).toBe(1)
})

test('desktop: a click on the backdrop', async ({ page }) => {
  await page.mouse.click(8, 8)
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  expect(await closes(page)).toBe(1)
})

test('desktop: close() from the app does not call onUserClose', async ({ page }) => {
  expect(await closes(page)).toBe(0)
  await page.evaluate(() => window.pairlink.close())
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  // Marker: a person's close after it is counted, so a call for the app's close, which comes first, would be too.
  await page.locator('#opener').click()
  await expect(dialog(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  await expect.poll(() => closes(page)).toBe(1)
  expect(await closes(page)).toBe(1)
})

test('desktop: Tab and Shift+Tab stay inside the dialog', async ({ page }) => {
  const inside = () => page.evaluate(() => document.activeElement?.id === 'walletconnect-wrapper')
  const seen = new Set<string>()
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    expect(await inside()).toBe(true)
    seen.add(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.textContent ?? ''))
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab')
    expect(await inside()).toBe(true)
  }
  expect([...seen]).toEqual(expect.arrayContaining(['QR Code', 'Desktop', 'Copy to clipboard']))
})

test('desktop: the React component opens, closes, and returns focus', async ({ page }) => {
  await page.keyboard.press('Escape')
  await page.goto(`${server.url}/react?uri=${encodeURIComponent(URI)}`)
  await page.locator('#react-opener').click()
  await expect(page.locator('#walletconnect-qrcode-text')).toBeVisible()
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(URI)
  await page.keyboard.press('Escape')
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  await expect(page.locator('#closes')).toHaveText('1')
  await expect(page.locator('#react-opener')).toBeFocused()
})
