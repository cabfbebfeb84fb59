import { createBridgeServer } from '@pairlink/bridge'
import { freePort } from '@pairlink/test-kit'
import { expect, type Page, test } from '@playwright/test'
import { chooseProtocol, copyPairingUri, modal } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { approveSession, pasteUri } from './support/walletPage.js'

// One banner per outage (issue 28), with the word of the generation in use: the relay, Pairlink's own on a port of
// its own (WALLETCONNECT_RELAY_URL), is stopped for real and started again on the same port while the page stays up.

const PROJECT_ID = 'fedcba9876543210fedcba9876543210'
let port: number
let relay: ReturnType<typeof createBridgeServer> | undefined
let product: Product

/** Starts the relay on its port (the same one each time, as a restarted relay would be). */
async function startRelay() {
  relay = createBridgeServer({ relay: { projectIds: [PROJECT_ID] } })
  await relay.listen(port, '127.0.0.1')
}

async function stopRelay() {
  await relay?.close()
  relay = undefined
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  port = await freePort()
  await startRelay()
  product = await startProduct({
    WALLETCONNECT_PROJECT_ID: PROJECT_ID,
    WALLETCONNECT_RELAY_URL: `ws://127.0.0.1:${port}`,
  })
})
test.afterAll(async () => {
  await product?.stop()
  await stopRelay()
})

const banners = (page: Page) => page.locator('.banners > *')
const RELAY_DOWN =
  'The relay is unreachable. Retrying… Messages to and from the wallet wait until it is back.'

test('v2: connecting while the relay is down shows one banner, about the relay; it goes when the relay is back', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto(product.origin)
  await chooseProtocol(page, 2)
  await stopRelay()
  try {
    await page.getByTestId('connect-button').click()
    // The connect gives up on the unreachable relay: the modal closes and the Connect button is back.
    await expect(page.getByTestId('connect-button')).toBeEnabled({ timeout: 60_000 })
    await expect(modal(page)).toHaveCount(0)
    await expect(page.getByTestId('bridge-warning')).toBeVisible()
    await expect(banners(page)).toHaveText([RELAY_DOWN])
  } finally {
    await startRelay()
  }
  // Back: no banner is left saying it cannot be reached.
  await expect(banners(page)).toHaveCount(0, { timeout: 60_000 })
})

test('v2: a connected session whose relay stops shows one banner, about the relay', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000)
  await page.goto(product.origin)
  const uri = await copyPairingUri(page, 2)
  const wallet = await context.newPage()
  await pasteUri(wallet, product.origin, uri)
  await approveSession(wallet)
  await expect(page.getByTestId('account-address')).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Dismiss message' }).click()
  await expect(banners(page)).toHaveCount(0)
  await stopRelay()
  try {
    await expect(page.getByTestId('bridge-warning')).toBeVisible({ timeout: 20_000 })
    await expect(banners(page)).toHaveText([RELAY_DOWN])
    await expect(page.getByTestId('bridge-state')).toHaveAttribute('data-state', 'connecting')
  } finally {
    await startRelay()
  }
  await expect(banners(page)).toHaveCount(0, { timeout: 60_000 })
  await expect(page.getByTestId('bridge-state')).toHaveAttribute('data-state', 'open')
})
