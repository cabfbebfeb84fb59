import { expect, type Page, test } from '@playwright/test'
import { screenshot } from './support/dapp.js'
import { startPairedDevices, withTwoDevices } from './support/twoDevices.js'

// A request the person approves but the wallet cannot do is a failure that says why, never a "Rejected".
test.describe.configure({ mode: 'serial' })

let dapp: Page
let wallet: Page
withTwoDevices(startPairedDevices, async (devices) => {
  ;({ dapp, wallet } = devices)
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

test('paying more than the balance: the wallet says insufficient funds, not Rejected, and so does the dapp', async () => {
  // Just under the 10 000 ETH a fresh dev account holds: the dapp's own check lets it through (the amount alone fits),
  // the wallet cannot pay it with the network fee on top.
  const result = await payAndApprove('9999.9999999')
  await expect(result).toHaveAttribute('data-status', 'failed')
  await expect(wallet.getByTestId('result-title')).toHaveText('Failed: insufficient funds')
  await expect(wallet.getByTestId('request-error')).toContainText(
    "insufficient funds for gas * price + value: the account's balance does not cover 9999.9999999 ETH plus gas (code -32003)",
  )
  await expect(result).not.toContainText('Rejected')
  // The wallet's failure in the node's words reaches the dapp as a failure, not a rejection.
  await expect(dapp.getByTestId('payment-status')).toContainText(
    'Not enough ETH to pay this amount plus the network fee.',
  )
  await expect(dapp.getByTestId('payment-status')).not.toContainText(/reject/i)
  await screenshot(wallet, 'wallet-failed-funds')
  await wallet.getByTestId('request-done').click()
  await expect(wallet.getByTestId('activity-item').first()).toHaveAttribute('data-status', 'failed')
})

test('paying with the wallet on another chain: the dapp says so and the wallet is not asked', async () => {
  await wallet.getByTestId('session-chain-switch').selectOption('1')
  await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '1', { timeout: 15_000 })
  await dapp.getByTestId('payment-amount').fill('0.01')
  await dapp.getByTestId('payment-send-button').click()
  await expect(dapp.getByTestId('payment-invalid')).toContainText(
    'The wallet is on another chain (Ethereum (1))',
  )
  // The wallet's own check for this case (its session's chain against its node's) is pinned by its unit tests:
  // this dapp checks first, so no request reached the wallet.
  await expect(wallet.getByTestId('activity-item')).toHaveCount(1)
  await expect(wallet.getByTestId('call-request')).toHaveCount(0)
})

test('the wallet names the chain as the dapp does, lists requests in words, and never strands a character of an address', async () => {
  // The chain both sides are on (switched to Ethereum above), in the same words on both.
  const walletChain = await wallet.getByTestId('session-chain-switch').locator('option:checked').textContent()
  expect(walletChain).toBe('Ethereum (1)')
  await expect(dapp.getByTestId('chain-name')).toHaveText(walletChain ?? '')

  const items = wallet.getByTestId('activity-item')
  await expect(items).toHaveCount(1)
  await expect(wallet.getByTestId('activity-title')).toHaveText(['Send transaction'])
  await expect(wallet.getByTestId('activity-meta').first()).toHaveText(/^Pairlink · \d{1,2}:\d{2}/)
  await expect(wallet.getByTestId('activity-list')).not.toContainText('eth_sendTransaction')

  // A phone-wide column: the address takes one or two lines of equal halves, none with a lone character.
  await wallet.setViewportSize({ width: 360, height: 740 })
  const address = wallet.getByTestId('session-account')
  const halves = await address.locator('.address-half').evaluateAll((spans) =>
    spans.map((span) => {
      const box = span.getBoundingClientRect()
      return { text: span.textContent, top: Math.round(box.top), width: Math.round(box.width) }
    }),
  )
  expect(halves.map((half) => half.text).join('')).toBe(await address.textContent())
  expect(halves).toHaveLength(2)
  expect(Math.abs((halves[0]?.width ?? 0) - (halves[1]?.width ?? 0))).toBeLessThanOrEqual(1)
  const lineHeight = await address.evaluate((e) => Number.parseFloat(getComputedStyle(e).lineHeight) || 20)
  expect((await address.boundingBox())?.height ?? 0).toBeLessThanOrEqual(2 * lineHeight + 1)
  await screenshot(wallet, 'wallet-home-phone')
})
