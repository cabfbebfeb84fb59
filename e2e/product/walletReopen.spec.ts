import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import type { Product } from './support/product.js'
import { startPairedDevices, withTwoDevices } from './support/twoDevices.js'
import { answerRequest } from './support/walletPage.js'

// The wallet closed (or reloaded) after the dapp's request reached it, before the person answered: the reopened
// wallet still has the request (it is stored with the session) and answers it while the dapp waits.
test.describe.configure({ mode: 'serial' })

/** Where the wallet page keeps the session's unanswered requests (apps/wallet/README.md). */
const REQUESTS_KEY = 'pairlink-wallet:requests'
// The waiting card names the wallet from its session metadata.
const WAITING = 'Confirm in Pairlink Wallet…'

let product: Product
let dapp: Page
let wallet: Page
let contexts: BrowserContext[]
withTwoDevices(startPairedDevices, async (devices) => {
  ;({ product, dapp, wallet, contexts } = devices)
})

/** Asks for a message signature from the web app and waits until the wallet shows it; returns its request id. */
async function askToSign(message: string): Promise<string> {
  await dapp.getByTestId('sign-message-input').fill(message)
  await dapp.getByTestId('sign-message-button').click()
  await expect(dapp.getByTestId('sign-message-button')).toHaveText(WAITING)
  const request = wallet.getByTestId('call-request')
  await expect(request).toBeVisible({ timeout: 15_000 })
  await expect(wallet.getByTestId('request-method')).toHaveText('personal_sign')
  return (await request.getAttribute('data-request-id')) ?? ''
}

/** Closes the wallet's page and opens the wallet again in a new page of the same browser context (its storage). */
async function reopenWallet(beforeLoad?: (page: Page) => Promise<void>): Promise<void> {
  await wallet.close()
  wallet = await contexts[1]!.newPage()
  if (beforeLoad) {
    // Any page of the wallet's origin reaches its storage; the JSON settings load no wallet code.
    await wallet.goto(`${product.origin}/api/config`)
    await beforeLoad(wallet)
  }
  await wallet.goto(`${product.origin}/wallet`)
}

test('closed before answering: the reopened wallet shows the request; approve → the dapp verifies the signature', async () => {
  const id = await askToSign('Signed after the wallet reopened')
  await reopenWallet()
  // The dapp never stopped waiting.
  await expect(dapp.getByTestId('sign-message-button')).toHaveText(WAITING)
  await expect(wallet.getByTestId('call-request')).toHaveAttribute('data-request-id', id, { timeout: 15_000 })
  await expect(wallet.getByTestId('status')).toHaveText(
    'Session with Pairlink restored. One request you had not answered is waiting for you.',
  )
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  await expect(dapp.getByTestId('sign-message-button')).toHaveText('Sign message')
  // Answered, so no longer stored: another reload offers nothing.
  expect(await wallet.evaluate((key) => localStorage.getItem(key), REQUESTS_KEY)).toBeNull()
  await wallet.reload()
  await expect(wallet.getByTestId('session-card')).toBeVisible()
  await expect(wallet.getByTestId('call-request')).toHaveCount(0)
})

test('reloaded with two requests waiting: both come back in the order they were asked', async () => {
  const first = await askToSign('First of two')
  await dapp.getByTestId('sign-typed-data-button').click()
  await expect(wallet.getByTestId('call-request')).toContainText('1 more waiting', { timeout: 15_000 })
  await wallet.reload()

  const request = wallet.getByTestId('call-request')
  await expect(request).toHaveAttribute('data-request-id', first, { timeout: 15_000 })
  await expect(request).toContainText('1 more waiting')
  await expect(wallet.getByTestId('status')).toHaveText(
    'Session with Pairlink restored. 2 requests you had not answered are waiting for you.',
  )
  await wallet.getByTestId('approve-request').click()
  await expect(wallet.getByTestId('request-method')).toHaveText('eth_signTypedData_v4')
  await answerRequest(wallet, 'eth_signTypedData_v4', 'approve')
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  await expect(dapp.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
})

test('reopened more than 5 minutes later: the request is not offered, it expired and the dapp stops waiting', async () => {
  await askToSign('Too late to sign')
  // As if the wallet had stayed closed for six minutes: the stored request is dated back.
  await reopenWallet((page) =>
    page.evaluate((key) => {
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { requests: { receivedAt: number }[] }
      for (const request of stored.requests) request.receivedAt -= 6 * 60_000
      localStorage.setItem(key, JSON.stringify(stored))
    }, REQUESTS_KEY),
  )
  const status = wallet.getByTestId('status')
  await expect(status).toHaveText(
    'Session with Pairlink restored. One request waited more than 5 minutes and expired; Pairlink was told.',
    { timeout: 15_000 },
  )
  await expect(status).toHaveAttribute('data-tone', 'warning')
  await expect(wallet.getByTestId('call-request')).toHaveCount(0)
  const item = wallet.getByTestId('activity-item').first()
  await expect(item).toHaveAttribute('data-status', 'expired')
  await expect(item.getByTestId('activity-title')).toHaveText('Sign message')
  await expect(dapp.getByTestId('sign-message-button')).toHaveText('Sign message')
  await expect(dapp.getByTestId('sign-message-error')).toBeVisible()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveCount(0)
})

test('the dapp disconnects while the wallet is closed: the reopened wallet ends the session and keeps no request', async () => {
  await askToSign('Never answered')
  await wallet.close()
  await dapp.getByTestId('disconnect-button').click()
  await expect(dapp.getByTestId('notice')).toHaveText('You disconnected the wallet.')
  wallet = await contexts[1]!.newPage()
  await wallet.goto(`${product.origin}/wallet`)
  await expect(wallet.getByTestId('status')).toHaveText('Pairlink disconnected the session.', {
    timeout: 15_000,
  })
  await expect(wallet.getByTestId('call-request')).toHaveCount(0)
  expect(await wallet.evaluate((key) => localStorage.getItem(key), REQUESTS_KEY)).toBeNull()
})
