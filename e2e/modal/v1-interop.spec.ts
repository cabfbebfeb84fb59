import { expect, test } from '@playwright/test'
import { decodeQr } from './support/qr.js'
import { startServer } from './support/server.js'

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

test("v1: @walletconnect/client@1.8.0 drives our modal as its qrcodeModal; closing rejects with v1's text", async ({
  page,
}) => {
  await page.goto(`${server.url}/v1`)
  await expect(page.locator('#walletconnect-qrcode-text')).toBeVisible()
  const uri = await page.evaluate(() => window.v1.uri())
  expect(uri).toMatch(/^wc:[0-9a-f-]{36}@1\?bridge=.+&key=[0-9a-f]{64}$/)
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(uri)
  // The session request went through the relay on the handshake topic the URI carries.
  const topic = uri.slice(3, uri.indexOf('@'))
  await expect.poll(() => server.relay.published).toContain(topic)
  await page.screenshot({ path: 'e2e/screenshots/modal-v1-interop.png', animations: 'disabled' })

  await page.locator('#walletconnect-qrcode-close').click()
  expect(await page.evaluate(() => window.v1.result)).toBe('User close QRCode Modal')
  expect(await page.evaluate(() => window.v1.modalClosed)).toBe(1)
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
})
