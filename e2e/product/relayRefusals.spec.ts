import { freePort } from '@pairlink/test-kit'
import type { WalletConnectNetwork } from '@pairlink/test-kit/walletconnect'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { chooseProtocol, modal, screenshot } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import {
  launchOnNetwork,
  networkEnv,
  RESTRICTED_PROJECT_ID,
  startNetwork,
  UNKNOWN_PROJECT_ID,
  upgradesFrom,
} from './support/walletConnectNetwork.js'

// WalletConnect's relay (its stand-in, under its real name) refuses the site: a project id it does not know, or a
// page origin not on the project's allowed domains. After Connect the person reads one message naming the fix, in the
// modal and on the page, and the page does not hammer the relay with new sockets.

/** A name for the site other than localhost/127.0.0.1, which every project allows. */
const SITE_NAME = 'dapp.example'
/** How long the page is watched for new sockets after the message (see {@link expectNoReconnectStorm}). */
const QUIET_MS = 6_000

let network: WalletConnectNetwork
let browser: Browser
test.beforeAll(async () => {
  network = await startNetwork()
  browser = await launchOnNetwork(network, [`MAP ${SITE_NAME} 127.0.0.1`])
})
test.afterAll(async () => {
  await browser?.close()
  await network?.close()
})

/**
 * Starts the product with `projectId` (the relay at its default, `wss://relay.walletconnect.org`) before the tests of
 * the `describe`, and opens the web app in the spec's browser; every socket the page opens to the relay is counted.
 */
function withRefusedSite(projectId: string, publicName?: string) {
  const state = {} as { product: Product; page: Page; sockets: () => number }
  test.beforeAll(async () => {
    test.setTimeout(PRODUCT_HOOK_TIMEOUT)
    const env: Record<string, string> = networkEnv(network, projectId)
    if (publicName) {
      // The site's identity is PUBLIC_URL, whose port must be known before start: a free one, passed as PORT.
      const port = await freePort()
      Object.assign(env, { PORT: String(port), PUBLIC_URL: `http://${publicName}:${port}` })
    }
    state.product = await startProduct(env)
    state.page = await (await browser.newContext()).newPage()
    let sockets = 0
    state.page.on('websocket', (socket) => {
      if (new URL(socket.url()).hostname === new URL(network.relayUrl).hostname) sockets++
    })
    state.sockets = () => sockets
  })
  test.afterAll(async () => {
    await state.page?.context().close()
    await state.product?.stop()
  })
  return state
}

/** Opens the web app, picks v2 and presses Connect wallet. */
async function connect(page: Page, origin: string) {
  await page.goto(origin)
  await chooseProtocol(page, 2)
  await page.getByTestId('connect-button').click()
}

/**
 * No reconnect storm: at most 2 attempts from the page (the first socket, and at most one more for Connect pressed
 * while it was refused), counted both by the page's WebSocket events and by the stand-in's upgrade log. Proving that
 * something does not happen takes time, so this samples both counts every 250 ms for {@link QUIET_MS} of real time
 * after the message and fails if any sample is above 2. A client that retried on its own, even with a back-off of a
 * second doubling, would open its third socket inside that window.
 */
async function expectNoReconnectStorm(count: () => number) {
  const since = Date.now()
  const sample = () => {
    const attempts = count()
    if (attempts > 2) return `${attempts} attempts`
    return Date.now() - since >= QUIET_MS ? 'quiet' : 'watching'
  }
  await expect.poll(sample, { timeout: QUIET_MS + 4_000, intervals: [250] }).toBe('quiet')
}

test.describe('a project id WalletConnect does not know', () => {
  const site = withRefusedSite(UNKNOWN_PROJECT_ID)

  test('Connect → the modal and the page say the project id is not accepted; no reconnect storm', async () => {
    const { page, product } = site
    await connect(page, product.origin)
    await expect(modal(page).getByRole('alert')).toHaveText(/project id/i)
    await expect(page.getByTestId('notice')).toHaveText(/project id/i)
    await expect(page.getByTestId('notice')).toContainText('WALLETCONNECT_PROJECT_ID')
    // The message alone, not a card sized for a QR code and wallet lists with nothing in them.
    const card = await modal(page).boundingBox()
    expect(card?.height).toBeLessThan(300)
    await screenshot(page, 'relay-refused-project', { publish: true })

    const refused = () => upgradesFrom(network, product.origin)
    expect(refused().length).toBeGreaterThanOrEqual(1)
    for (const attempt of refused())
      expect(attempt).toMatchObject({
        projectId: UNKNOWN_PROJECT_ID,
        outcome: 'refused',
        reason: 'Project not found',
      })
    await expectNoReconnectStorm(() => Math.max(refused().length, site.sockets()))
  })
})

test.describe('a page origin not on the project’s allowed domains', () => {
  const site = withRefusedSite(RESTRICTED_PROJECT_ID, SITE_NAME)

  test('Connect → the modal and the page say the site’s address is not allowed; no reconnect storm', async () => {
    const { page, product } = site
    expect(new URL(product.origin).hostname).toBe(SITE_NAME)
    await connect(page, product.origin)
    await expect(modal(page).getByRole('alert')).toHaveText(/allowed domains|address/i)
    await expect(page.getByTestId('notice')).toHaveText(/allowed domains|address/i)
    await screenshot(page, 'relay-refused-origin', { publish: true })

    const refused = () => upgradesFrom(network, product.origin)
    expect(refused().length).toBeGreaterThanOrEqual(1)
    for (const attempt of refused())
      expect(attempt).toMatchObject({
        projectId: RESTRICTED_PROJECT_ID,
        outcome: 'refused',
        reason: 'Unauthorized: origin not allowed',
      })
    await expectNoReconnectStorm(() => Math.max(refused().length, site.sockets()))
  })
})
