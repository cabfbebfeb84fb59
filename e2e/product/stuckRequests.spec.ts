import { expect, type Page, test } from '@playwright/test'
import type { Product } from './support/product.js'
import { startPairedDevices, withTwoDevices } from './support/twoDevices.js'
import { answerRequest } from './support/walletPage.js'

// A wallet that never answers must not strand the dapp: every waiting card has a Cancel, and every request times out.
test.describe.configure({ mode: 'serial' })

const CANCELLED =
  /^You stopped waiting for the wallet\. If it still shows the (request|payment), reject it there/
const TIMED_OUT = 'The wallet did not answer in time. Check the wallet and try again.'

let product: Product
let dapp: Page
let wallet: Page
withTwoDevices(startPairedDevices, async (devices) => {
  ;({ product, dapp, wallet } = devices)
})

test('Cancel ends the wait with a message; the wallet still has the request, and its late answer is ignored', async () => {
  const button = dapp.getByTestId('sign-message-button')
  await button.click()
  await expect(button).toHaveText('Confirm in Pairlink Wallet…')
  await expect(wallet.getByTestId('request-method')).toHaveText('personal_sign', { timeout: 15_000 })
  await dapp.getByTestId('sign-message-cancel').click()
  await expect(button).toHaveText('Sign message')
  await expect(button).toBeEnabled()
  await expect(dapp.getByTestId('sign-message-cancel')).toHaveCount(0)
  await expect(dapp.getByTestId('sign-message-error')).toHaveText(CANCELLED)

  // The request stays answerable in the wallet; its answer reaches the dapp, which ignores it.
  await answerRequest(wallet, 'personal_sign', 'approve')
  // A marker after it on the same session: once this answer is shown, the earlier one has arrived too.
  await dapp.getByTestId('sign-typed-data-button').click()
  await answerRequest(wallet, 'eth_signTypedData_v4', 'approve')
  await expect(dapp.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
  await expect(dapp.getByTestId('sign-message-verified')).toHaveCount(0)
  await expect(dapp.getByTestId('sign-message-error')).toHaveText(CANCELLED)
})

test('the wallet is closed mid-request: every waiting card has a Cancel that returns it to idle', async () => {
  await wallet.close()
  const cards = [
    {
      start: 'sign-message-button',
      cancel: 'sign-message-cancel',
      error: 'sign-message-error',
      idle: 'Sign message',
    },
    {
      start: 'sign-typed-data-button',
      cancel: 'sign-typed-data-cancel',
      error: 'sign-typed-data-error',
      idle: 'Sign typed data',
    },
    { start: 'payment-send-button', cancel: 'payment-cancel', error: 'payment-status', idle: 'Send payment' },
    {
      start: 'switch-chain-button',
      cancel: 'switch-chain-cancel',
      error: 'switch-chain-error',
      idle: 'Switch chain',
    },
    {
      start: 'sign-in-button',
      cancel: 'sign-in-cancel',
      error: 'sign-in-error',
      idle: 'Sign in with wallet',
    },
  ]
  await dapp.getByTestId('payment-amount').fill('0.01')
  for (const card of cards) {
    const button = dapp.getByTestId(card.start)
    await button.click()
    await expect(button).toHaveText('Confirm in Pairlink Wallet…')
    await expect(button).toBeDisabled()
    await dapp.getByTestId(card.cancel).click()
    await expect(button).toHaveText(card.idle)
    await expect(button).toBeEnabled()
    await expect(dapp.getByTestId(card.cancel)).toHaveCount(0)
    await expect(dapp.getByTestId(card.error)).toHaveText(CANCELLED)
  }
})

test('a request the wallet never answers times out with a message (?walletTimeout=ms)', async () => {
  await dapp.goto(`${product.origin}/?walletTimeout=1500`)
  const button = dapp.getByTestId('sign-message-button')
  await expect(button).toBeEnabled({ timeout: 15_000 })
  await button.click()
  await expect(button).toHaveText('Confirm in Pairlink Wallet…')
  await expect(dapp.getByTestId('sign-message-error')).toHaveText(TIMED_OUT, { timeout: 10_000 })
  await expect(button).toHaveText('Sign message')
  await expect(dapp.getByTestId('sign-message-cancel')).toHaveCount(0)
})
