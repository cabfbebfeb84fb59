import { devices, expect, test } from '@playwright/test'
import { chooseProtocol, modal, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'

// Without a WalletConnect project id the product pairs through its own relay (the journey on it is the one of
// dappAndWallet.spec.ts), and says so: the connect screen promises no phone wallets, and the wallet list offers only
// the wallets that can reach this relay.

const product = withProduct()

test('the connect screen says what can connect; no promise of phone wallets', async ({ page }) => {
  const config = (await (await fetch(`${product.origin}/api/config`)).json()) as Record<string, unknown>
  expect(config).toMatchObject({ relayNetwork: 'pairlink', relayUrl: product.origin.replace(/^http/, 'ws') })
  await page.goto(product.origin)
  await chooseProtocol(page, 2)
  const intro = page.getByTestId('connect-intro')
  await expect(intro).toHaveAttribute('data-network', 'pairlink')
  await expect(intro).toContainText('Pairlink Wallet')
  // Phone wallets are named only as needing the operator's project id, never as able to scan the code now.
  await expect(intro).toContainText('WALLETCONNECT_PROJECT_ID')
  await expect(intro).not.toContainText(/any WalletConnect wallet|today.s wallets/i)
  await expect(page.locator('main')).not.toContainText(/today.s wallets/i)
  await screenshot(page, 'connect-self-hosted', { publish: true })
})

test('the wallet list offers only Pairlink Wallet, on the server and in the modal on a phone', async ({
  browser,
}) => {
  const list = (await (await fetch(`${product.origin}/registry/wallets.json`)).json()) as {
    listings: Record<string, { name: string }>
  }
  expect(Object.values(list.listings).map((entry) => entry.name)).toEqual(['Pairlink Wallet'])

  const { defaultBrowserType: _, ...iPhone } = devices['iPhone 13']
  const phone = await browser.newContext({ ...iPhone })
  try {
    const dapp = await phone.newPage()
    await dapp.goto(product.origin)
    await chooseProtocol(dapp, 2)
    await dapp.getByTestId('connect-button').tap()
    await expect(modal(dapp)).toBeVisible()
    // One wallet to offer: the modal names it as its one link (beside the QR code), and offers no list of others.
    const links = modal(dapp).getByRole('link')
    await expect(links).toHaveCount(1)
    await expect(links).toHaveAccessibleName(/Pairlink Wallet/)
    await expect(links).toHaveAttribute('href', new RegExp(`^${product.origin}/wallet/wc\\?uri=wc%3A`))
    await screenshot(dapp, 'phone-wallet-list-self-hosted')
  } finally {
    await phone.close()
  }
})
