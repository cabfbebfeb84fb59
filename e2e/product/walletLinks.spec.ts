import { expect, type Page, test } from '@playwright/test'
import { screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'

// The reference wallet's answers to links that cannot pair: it says what is wrong, keeps the pasted text, and a
// pairing no dapp answers ends with a message instead of waiting forever.

const product = withProduct()

const KEY = 'ab'.repeat(32)

async function paste(wallet: Page, link: string): Promise<void> {
  await wallet.goto(`${product.origin}/wallet`)
  await wallet.getByTestId('uri-input').fill(link)
  await wallet.getByTestId('pair-button').click()
}

test.describe('wallet: a link that cannot pair says why and stays in the box', () => {
  const cases = [
    ['garbage', 'hello, this is not a link', 'This is not a WalletConnect link: a pairing link looks like'],
    ['a wc: text with neither bridge nor key', 'wc:hello', 'This wc: link has neither a bridge nor a key'],
    [
      'an expired WalletConnect v2 link',
      `wc:${'7f'.repeat(32)}@2?expiryTimestamp=1&relay-protocol=irn&symKey=${KEY}`,
      'This WalletConnect v2 link has expired: a link is valid for a few minutes and pairs once.',
    ],
    [
      'a v1 link without its key',
      'wc:00000000-0000-4000-8000-000000000000@1?bridge=https%3A%2F%2Fbridge.example',
      'This link has no key (key=…)',
    ],
  ] as const
  for (const [name, link, message] of cases) {
    test(name, async ({ page }) => {
      await paste(page, link)
      const status = page.getByTestId('status')
      await expect(status).toContainText(message)
      await expect(status).toHaveAttribute('data-tone', 'error')
      await expect(status).not.toContainText('brings the wallet forward')
      await expect(page.getByTestId('uri-input')).toHaveValue(link)
      await expect(page.getByTestId('pairing')).toHaveCount(0)
    })
  }
})

test('wallet: a link no dapp answers times out with a message and keeps the link', async ({ page }) => {
  await page.clock.install()
  // A whole v1 link to the product's own bridge, for a topic no dapp publishes to.
  const link = `wc:${crypto.randomUUID()}@1?bridge=${encodeURIComponent(product.origin)}&key=${KEY}`
  await paste(page, link)
  const pairing = page.getByTestId('pairing')
  await expect(pairing).toBeVisible()
  // Said once, on the card: no status line repeats it.
  await expect(page.getByText(/Waiting for the dapp.s session request/)).toHaveCount(1)
  await expect(page.getByTestId('status')).toHaveCount(0)
  await screenshot(page, 'wallet-pairing')

  await page.clock.fastForward(31_000)
  const status = page.getByTestId('status')
  await expect(status).toContainText('No session request from the dapp within 30 s')
  await expect(status).toHaveAttribute('data-tone', 'error')
  await expect(pairing).toHaveCount(0)
  await expect(page.getByTestId('uri-input')).toHaveValue(link)
  await screenshot(page, 'wallet-pairing-timeout')
})
