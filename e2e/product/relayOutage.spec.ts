import { createBridgeServer } from '@pairlink/bridge'
import { expect, type Page, test } from '@playwright/test'
import { copyPairingUri } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// The web app and the wallet page over v2 on a relay of their own (WALLETCONNECT_RELAY_URL), really stopped and
// started again on its port: a request made during an outage longer than a relay call's 15 s time-out waits in the
// dapp's stored outbox and is answered once the relay is back. Each test runs on the pairing the `beforeAll` makes.

const PROJECT_ID = 'fedcba9876543210fedcba9876543210'
/** Longer than the v2 client's relay call time-out (`requestTimeout`, 15 s), after which main dropped the request. */
const OUTAGE_MS = 20_000
const UNREACHABLE = "Can't reach the relay right now"
let relay: ReturnType<typeof createBridgeServer>
let port: number
let product: Product
let dapp: Page
let wallet: Page

const startRelay = async (at = 0) => {
  relay = createBridgeServer({ relay: { projectIds: [PROJECT_ID] } })
  return relay.listen(at, '127.0.0.1')
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  const { url, port: listening } = await startRelay()
  port = listening
  const relayUrl = url.replace(/^http/, 'ws')
  product = await startProduct({ WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: relayUrl })
  const options = { permissions: ['clipboard-read', 'clipboard-write'] }
  dapp = await (await browser.newContext(options)).newPage()
  wallet = await (await browser.newContext(options)).newPage()
  await dapp.goto(product.origin)
  await pasteUri(wallet, product.origin, await copyPairingUri(dapp, 2))
  await approveSession(wallet)
  await expect(dapp.getByTestId('sign-message-button')).toBeEnabled({ timeout: 15_000 })
})
test.afterAll(async () => {
  await dapp?.context().close()
  await wallet?.context().close()
  await product?.stop()
  // A test that failed mid-outage left it closed already.
  await relay?.close().catch(() => {})
})

test('a message signed while the relay is down for 20 s is answered once it is back; the dapp never says it cannot reach the relay', async () => {
  test.setTimeout(180_000)
  await relay.close()
  // The dapp's banner: what it sends waits for the relay.
  await expect(dapp.getByTestId('bridge-warning')).toContainText('Messages to and from the wallet wait', {
    timeout: 20_000,
  })
  await dapp.getByTestId('sign-message-button').click()
  const error = dapp.getByTestId('sign-message-error')
  const since = Date.now()
  // The whole outage is watched: at no point does the request fail (main's failed after the 15 s call time-out).
  await expect
    .poll(
      async () => {
        await expect(error).toHaveCount(0)
        await expect(dapp.getByText(UNREACHABLE)).toHaveCount(0)
        return Date.now() - since
      },
      { timeout: OUTAGE_MS + 15_000, intervals: [500] },
    )
    .toBeGreaterThan(OUTAGE_MS)

  await startRelay(port)
  // Each side's socket comes back on its own backoff (up to 30 s): the wallet then gets the request, once.
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 60_000 })
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true', {
    timeout: 60_000,
  })
  await expect(dapp.getByText(UNREACHABLE)).toHaveCount(0)
  await expect(error).toHaveCount(0)
  // Answered once: no second prompt for the same request.
  await expect(wallet.getByTestId('call-request')).toHaveCount(0)
})

test('the wallet page answers while the relay is down for 20 s; the dapp gets the answer once it is back', async () => {
  test.setTimeout(180_000)
  await dapp.getByTestId('sign-message-button').click()
  // The first test's outcome gave way to this request's wait.
  await expect(dapp.getByTestId('sign-message-verified')).toHaveCount(0)
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await relay.close()
  await expect(dapp.getByTestId('bridge-warning')).toContainText('Messages to and from the wallet wait', {
    timeout: 20_000,
  })
  await wallet.getByTestId('approve-request').click()
  // The answer waits in the wallet's outbox: the page shows it given, and no error while the relay stays down.
  await expect(wallet.getByTestId('request-result')).toBeVisible({ timeout: 15_000 })
  const since = Date.now()
  await expect
    .poll(
      async () => {
        await expect(wallet.locator('[data-testid="status"][data-tone="error"]')).toHaveCount(0)
        await expect(dapp.getByTestId('sign-message-error')).toHaveCount(0)
        return Date.now() - since
      },
      { timeout: OUTAGE_MS + 15_000, intervals: [500] },
    )
    .toBeGreaterThan(OUTAGE_MS)

  await startRelay(port)
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true', {
    timeout: 60_000,
  })
  await expect(dapp.getByText(UNREACHABLE)).toHaveCount(0)
})
