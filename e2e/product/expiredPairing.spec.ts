import { expect, type Page, test } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { copyFromModal, copyPairingUri, modal, screenshot } from './support/dapp.js'
import type { Product } from './support/product.js'
import { startTwoDevices, withTwoDevices } from './support/twoDevices.js'
import { approveSession } from './support/walletPage.js'

// A v2 pairing link outlives nobody's patience: the web app's modal swaps in a fresh link before the old one expires,
// and the reference wallet given the old one (scanned from a screenshot, pasted late) says it expired. The web app
// and the wallet page in two contexts, one product server.
let product: Product
let dapp: Page
let wallet: Page
withTwoDevices(startTwoDevices, async (devices) => {
  ;({ product, dapp, wallet } = devices)
})

/** Pastes a link into the wallet page's pairing box, as it is (no new page load). */
async function pasteHere(page: Page, uri: string): Promise<void> {
  await page.getByTestId('uri-input').fill(uri)
  await page.getByTestId('pair-button').click()
}

/** The pairing topic of a v2 link (`wc:<topic>@2?…`). */
const topicOf = (uri: string) => /^wc:([0-9a-f]{64})@2/.exec(uri)?.[1]

test('the modal replaces an expiring link; the old one gets a clear message in the wallet; the new one pairs', async () => {
  // The page's clock runs as the real one until the jump below; the relay's (the server's) is never moved.
  await dapp.clock.install()
  await dapp.goto(product.origin)
  const old = await copyPairingUri(dapp, 2)
  const timer = modal(dapp).getByRole('timer')
  await expect(timer).toHaveText(/^Expires in 4:[0-5]\d$/)

  // Five minutes on the dapp's page: the countdown ends and the client's fresh pairing replaces the link in place.
  await dapp.clock.fastForward('05:00')
  let fresh = old
  const copied = async () => {
    fresh = await copyFromModal(dapp, 2)
    return topicOf(fresh)
  }
  await expect.poll(copied, { timeout: 15_000 }).not.toBe(topicOf(old))
  expect(fresh).toMatch(/^wc:[0-9a-f]{64}@2\?.*\bsymKey=[0-9a-f]{64}\b/)
  await expect(timer).toHaveText(/^Expires in 4:[0-5]\d$/)

  // The person's wallet five minutes on, too: the old link has expired, and the wallet says so without pairing.
  await wallet.clock.install({ time: Date.now() + 5 * 60_000 + 1_000 })
  await wallet.goto(`${product.origin}/wallet`)
  await pasteHere(wallet, old)
  const status = wallet.getByTestId('status')
  await expect(status).toContainText(
    'This WalletConnect v2 link has expired: a link is valid for a few minutes and pairs once. Get a new link from the dapp and connect again',
  )
  await expect(status).toHaveAttribute('data-tone', 'error')
  await expect(wallet.getByTestId('pairing')).toHaveCount(0)
  await expect(wallet.getByTestId('uri-input')).toHaveValue(old)
  await screenshot(wallet, 'wallet-link-expired')

  // The relay checks its clients' tokens against its own clock: the wallet's is set back before it connects.
  await wallet.clock.setSystemTime(Date.now())
  await pasteHere(wallet, fresh)
  // The web app's v2 connect also asks to sign in (one-click auth): the fresh link brings that prompt.
  await expect(wallet.getByTestId('auth-request')).toBeVisible({ timeout: 15_000 })
  await approveSession(wallet)
  await expect(modal(dapp)).toHaveCount(0)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('session-protocol')).toHaveText('WalletConnect v2')
})
