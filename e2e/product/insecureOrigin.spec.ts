import { createServer } from 'node:net'
import { expect, test } from '@playwright/test'
import { chromiumLaunch } from '../chromium.mjs'
import { ACCOUNT_0 } from './support/accounts.js'
import { chooseProtocol, modal, scanQr, screenshot } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// A phone reaching a dev server over the network loads the apps from plain http on a non-local address: an insecure
// context, where browsers hide `crypto.subtle`. Chromium maps a made-up host name to the server to be exactly there.
test.use({
  launchOptions: {
    ...chromiumLaunch,
    args: [...chromiumLaunch.args, '--host-resolver-rules=MAP pairlink.test 127.0.0.1'],
  },
})

let product: Product
test.beforeAll(async () => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  // The site's identity is configuration (PUBLIC_URL), never the request's Host: the network name is configured.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
  product = await startProduct({ PORT: String(port), PUBLIC_URL: `http://pairlink.test:${port}` })
})
test.afterAll(async () => {
  await product?.stop()
})

test('insecure context (plain http on a network name): no crypto.subtle, and the dapp and the wallet still pair and sign', async ({
  browser,
}) => {
  const origin = product.origin
  const context = await browser.newContext()
  const dapp = await context.newPage()
  await dapp.goto(origin)
  expect(await dapp.evaluate(() => [window.isSecureContext, typeof crypto.subtle])).toEqual([
    false,
    'undefined',
  ])

  await chooseProtocol(dapp, 1)
  await dapp.getByTestId('connect-button').click()
  await expect(modal(dapp)).toBeVisible()
  const uri = await scanQr(dapp)
  expect(uri).toMatch(/^wc:[0-9a-f-]+@1\?bridge=http%3A%2F%2Fpairlink\.test%3A\d+&key=[0-9a-f]{64}$/)

  const wallet = await context.newPage()
  await pasteUri(wallet, origin, uri!)
  expect(await wallet.evaluate(() => typeof crypto.subtle)).toBe('undefined')
  await approveSession(wallet)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })

  await dapp.getByTestId('sign-message-button').click()
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  await screenshot(dapp, 'insecure-origin-signed')
  await context.close()
})
