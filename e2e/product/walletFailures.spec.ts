import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { copyPairingUri, screenshot } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { approveSession, pasteUri } from './support/walletPage.js'

// A request the person approves but the wallet cannot do is a failure that says why, never a "Rejected".
test.describe.configure({ mode: 'serial' })

let product: Product
let contexts: BrowserContext[] = []
let dapp: Page
let wallet: Page

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  product = await startProduct()
  const options = { permissions: ['clipboard-read', 'clipboard-write'] }
  contexts = [await browser.newContext(options), await browser.newContext(options)]
  dapp = await contexts[0]!.newPage()
  wallet = await contexts[1]!.newPage()
  await dapp.goto(product.origin)
  await pasteUri(wallet, product.origin, await copyPairingUri(dapp))
  await approveSession(wallet)
})
test.afterAll(async () => {
  for (const context of contexts) await context.close()
  await product?.stop()
})

/** Sends `amount` ETH from the dapp and approves it in the wallet; returns the wallet's result screen. */
async function payAndApprove(amount: string) {
  await dapp.getByTestId('payment-amount').fill(amount)
  await dapp.getByTestId('payment-send-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await expect(wallet.getByTestId('request-method')).toHaveText('eth_sendTransaction')
  await wallet.getByTestId('approve-request').click()
  const result = wallet.getByTestId('request-result')
  await expect(result).toBeVisible({ timeout: 15_000 })
  return result
}

test('paying more than the balance: the wallet says insufficient funds, not Rejected', async () => {
  const result = await payAndApprove('1000000')
  await expect(result).toHaveAttribute('data-status', 'failed')
  await expect(wallet.getByTestId('result-title')).toHaveText('Failed: insufficient funds')
  await expect(wallet.getByTestId('request-error')).toContainText(
    "insufficient funds for gas * price + value: the account's balance does not cover 1000000 ETH plus gas (code -32000)",
  )
  await expect(result).not.toContainText('Rejected')
  await screenshot(wallet, 'wallet-failed-funds')
  await wallet.getByTestId('request-done').click()
  await expect(wallet.getByTestId('activity-item').first()).toHaveAttribute('data-status', 'failed')
})

test('paying with the wallet on another chain: the wallet says so', async () => {
  await wallet.getByTestId('session-chain-switch').selectOption('1')
  await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '1', { timeout: 15_000 })
  const result = await payAndApprove('0.01')
  await expect(result).toHaveAttribute('data-status', 'failed')
  await expect(wallet.getByTestId('result-title')).toHaveText('Failed: the wallet is on another chain')
  await expect(wallet.getByTestId('request-error')).toContainText(
    'The wallet is on another chain: its session is on Ethereum (1), but its node serves Anvil dev chain (31337).',
  )
  await screenshot(wallet, 'wallet-failed-chain')
})
