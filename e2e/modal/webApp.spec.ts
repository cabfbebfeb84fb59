import { AxeBuilder } from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { inHouseWalletsFile, withProduct } from '../product/support/product.js'

// The modal inside the web app looks like the app and hands focus back to it (issue 13). Chromium plays a person
// whose system is dark and in German: the app's page follows the browser's language (issue 28), and the modal the page.

// Without a project id the list holds the wallets that reach this relay: Pairlink Wallet and, here, an in-house wallet
// the operator declares (WALLETS_FILE), so the desktop tab lists two.
const product = withProduct({ WALLETS_FILE: inHouseWalletsFile() })
test.use({ colorScheme: 'dark', locale: 'de-DE', reducedMotion: 'reduce' })

/** Whether a computed `rgb(…)` colour is dark (relative lightness below one half). */
const isDark = (rgb: string) => {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128
}

test('web app: the modal speaks the app language and wears its colour scheme; Escape returns focus to Connect wallet', async ({
  page,
}) => {
  await page.goto(product.origin)
  const connect = page.getByTestId('connect-button')
  const modal = page.getByRole('dialog', { name: 'Wallet verbinden' })
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(connect).toHaveText('Wallet verbinden')
  await connect.click()
  await expect(modal).toBeVisible()
  await expect(page.getByRole('tab', { name: 'QR-Code' })).toBeVisible()
  expect(await page.locator('#walletconnect-qrcode-modal').getAttribute('lang')).toBe(
    await page.locator('html').getAttribute('lang'),
  )
  const app = await page.locator('html').evaluate((root) => getComputedStyle(root).backgroundColor)
  const dialog = await modal.evaluate((card) => getComputedStyle(card).backgroundColor)
  expect(isDark(dialog)).toBe(isDark(app))
  // The reference wallet's icon comes from this server's icon folder; no image comes from another site.
  const images: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'image') images.push(request.url())
  })
  await page.getByRole('tab', { name: 'Desktop' }).click()
  const icon = page.getByRole('link', { name: 'Pairlink Wallet', exact: true }).locator('img')
  await expect(icon).toHaveAttribute('src', `${product.origin}/registry/logos/pairlink-reference-wallet.svg`)
  await expect
    .poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true)
  expect(images.length > 0 && images.every((url) => url.startsWith(`${product.origin}/`))).toBe(true)
  await page.screenshot({ path: 'e2e/screenshots/modal-web-app-dark.png', animations: 'disabled' })
  const results = await new AxeBuilder({ page })
    .include('#walletconnect-wrapper')
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze()
  expect(results.violations.map((violation) => violation.id)).toEqual([])

  await page.keyboard.press('Escape')
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
  await expect(connect).toHaveText('Wallet verbinden')
  await expect(connect).toBeFocused()
})
