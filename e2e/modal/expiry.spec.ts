import { expect, type Page, test } from '@playwright/test'
import { decodeQr } from './support/qr.js'
import { startServer } from './support/server.js'

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

const T0 = Date.UTC(2030, 0, 1)
/** A v2 pairing URI as the SDK writes it, expiring 300 s after T0 (+ `later` seconds). */
const pairing = (topic: string, later = 0) =>
  `wc:${topic.repeat(64)}@2?expiryTimestamp=${T0 / 1000 + 300 + later}&relay-protocol=irn&symKey=${'5'.repeat(64)}`
const timer = (page: Page) => page.getByRole('timer')

test('v2: the countdown runs, the expired code cannot be scanned, a fresh URI replaces it in place', async ({
  page,
}) => {
  const first = pairing('a')
  await page.clock.install({ time: T0 - 1000 })
  await page.clock.pauseAt(T0)
  await page.goto(`${server.url}/plain?refresh&uri=${encodeURIComponent(first)}`)
  await page.locator('#opener').click()
  await expect(timer(page)).toHaveText('Expires in 4:40')
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(first)
  await page.clock.runFor(1000)
  await expect(timer(page)).toHaveText('Expires in 4:39')

  await page.clock.runFor(279_000)
  await expect(timer(page)).toHaveText('This code has expired. Getting a new code…')
  expect(await page.evaluate(() => window.pairlink.expiries)).toBe(1)
  await expect(page.getByRole('button', { name: 'Copy to clipboard' })).toBeDisabled()
  await page.screenshot({ path: 'e2e/screenshots/modal-expired.png', animations: 'disabled' })
  // What a camera sees: neither the code's box nor the whole dialog holds a readable QR code.
  expect(await decodeQr(page.locator('.qrbox'))).toBeUndefined()
  expect(await decodeQr(page.getByRole('dialog'))).toBeUndefined()

  // The client answers with a new pairing through open(): the same modal, the new code readable.
  await page.evaluate(() => {
    document.getElementById('walletconnect-wrapper')?.setAttribute('data-first', '')
  })
  const second = pairing('b', 280)
  await page.evaluate((uri) => window.pairlink.open(uri, undefined, { registryUrl: '/registry' }), second)
  await expect(page.locator('#walletconnect-wrapper[data-first]')).toHaveCount(1)
  await expect(timer(page)).toHaveText('Expires in 4:40')
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(second)
  await page.getByRole('tab', { name: 'Desktop' }).click()
  await expect(page.getByRole('link', { name: 'Ledger Live' })).toHaveAttribute(
    'href',
    `ledgerlive://wc?uri=${encodeURIComponent(second)}`,
  )
})

test('v2: without onExpired the expired code just says so; links are disabled', async ({ page }) => {
  await page.clock.install({ time: T0 - 1000 })
  await page.clock.pauseAt(T0)
  await page.goto(`${server.url}/plain?uri=${encodeURIComponent(pairing('c'))}`)
  await page.locator('#opener').click()
  await page.getByRole('tab', { name: 'Desktop' }).click()
  await expect(page.locator('a.wallet[href]')).toHaveCount(6)
  await page.clock.runFor(280_000)
  await expect(timer(page)).toHaveText('This code has expired.')
  await expect(page.locator('a.wallet[href]')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Ledger Live' })).toHaveCount(0)
  await page.getByRole('tab', { name: 'QR Code' }).click()
  expect(await decodeQr(page.locator('.qrbox'))).toBeUndefined()
})
