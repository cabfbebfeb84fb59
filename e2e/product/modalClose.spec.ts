import { expect, type Page, test } from '@playwright/test'
import { copyPairingUri, modal, type Protocol, readStoredSession } from './support/dapp.js'
import type { Product } from './support/product.js'
import { startTwoDevices, withTwoDevices } from './support/twoDevices.js'
import { pasteUri } from './support/walletPage.js'

// Closing the QR window means no: the wallet page approving the code afterwards is refused, and the web app stays
// disconnected (also after a reload). Over v1 the web app kills the session the wallet made; over v2 it refuses the
// settlement or deletes the one-click session with 5000.
test.describe.configure({ mode: 'serial' })

let product: Product
let dapp: Page
let wallet: Page
withTwoDevices(startTwoDevices, (devices) => {
  ;({ product, dapp, wallet } = devices)
})

/** What the wallet page says once the web app refused its approval. */
const REFUSED: Record<Protocol, RegExp> = {
  1: /disconnected the session/,
  2: /cancelled the connection before your approval reached it/,
}

for (const protocol of [2, 1] as const) {
  test(`v${protocol}: the wallet approving a closed QR code is refused; the web app stays disconnected`, async () => {
    await dapp.goto(product.origin)
    const uri = await copyPairingUri(dapp, protocol)
    await dapp.getByRole('button', { name: 'Close' }).click()
    await expect(modal(dapp)).toHaveCount(0)
    await expect(dapp.getByTestId('notice')).toHaveText(/^You closed the QR window/)

    await pasteUri(wallet, product.origin, uri)
    const auth = wallet.getByTestId('approve-auth')
    await ((await auth.isVisible()) ? auth : wallet.getByTestId('approve-session')).click()
    await expect(wallet.getByTestId('status')).toContainText(REFUSED[protocol], { timeout: 15_000 })
    await expect(wallet.getByTestId('session-card')).toHaveCount(0)

    await expect(dapp.getByTestId('account-address')).toHaveCount(0)
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    expect(await readStoredSession(dapp, protocol)).toBeNull()
    await dapp.reload()
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await expect(dapp.getByTestId('account-address')).toHaveCount(0)
  })
}
