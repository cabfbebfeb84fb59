import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { ACCOUNT_0, ACCOUNT_1 } from './support/accounts.js'
import { copyPairingUri, screenshot } from './support/dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product } from './support/product.js'
import { startTwoDevices, type TwoDevices } from './support/twoDevices.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// Issue 8: Sign-In with Ethereum against the server, and payments the server follows to confirmation on its own.
// One server, the web app and the reference wallet in two contexts; the tests run in order on one session.
test.describe.configure({ mode: 'serial' })

type ApiPayment = { txHash: string; status: string; confirmations: number }

let devices: TwoDevices
let product: Product
let contexts: BrowserContext[] = []
let dapp: Page
let wallet: Page
let paymentHash = ''

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  devices = await startTwoDevices(browser)
  ;({ product, contexts, dapp, wallet } = devices)
})
test.afterAll(async () => {
  await devices?.stop()
})

/** The dapp context's API answer, with its session cookie and no page open. */
async function api<result>(path: string): Promise<{ status: number; body: result }> {
  const response = await contexts[0]!.request.get(`${product.origin}${path}`)
  return { status: response.status(), body: (await response.json()) as result }
}

test('sign in: the wallet signs the EIP-4361 message; the session cookie; a reload stays signed in', async () => {
  await dapp.goto(product.origin)
  const uri = await copyPairingUri(dapp)
  await pasteUri(wallet, product.origin, uri)
  await approveSession(wallet)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
  await expect(dapp.getByTestId('payment-record')).toHaveText('Sign in to keep a record of your payments.')
  await expect(dapp.getByTestId('payment-history')).toHaveCount(0)

  await dapp.getByTestId('sign-in-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  const host = new URL(product.origin).host
  await expect(wallet.getByTestId('message-text')).toContainText(
    `${host} wants you to sign in with your Ethereum account:`,
  )
  await expect(wallet.getByTestId('message-text')).toContainText(ACCOUNT_0)
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await expect(dapp.getByTestId('sign-in-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('sign-in-result')).toHaveText(`Signed in as ${ACCOUNT_0}.`)

  const cookie = (await contexts[0]!.cookies(product.origin)).find((c) => c.name === 'pairlink_session')
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false })
  expect((await api<{ address: string }>('/api/me')).body.address).toBe(ACCOUNT_0)

  await dapp.reload()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await expect(dapp.getByTestId('payment-history-empty')).toBeVisible()
  await screenshot(dapp, 'records-signed-in', { publish: true })
})

test('pay, close the tab before confirmation, reopen: the server confirmed the payment on its own', async () => {
  await dapp.getByTestId('payment-amount').fill('0.01')
  await dapp.getByTestId('payment-send-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await expect(wallet.getByTestId('request-method')).toHaveText('eth_sendTransaction')
  await wallet.getByTestId('approve-request').click()

  // As soon as the dapp has the hash and the server has the record, the tab goes: no page follows it any more.
  const item = dapp.getByTestId('payment-history-item').first()
  await expect(item).toBeVisible({ timeout: 15_000 })
  const statusAtClose = await item.getAttribute('data-status')
  paymentHash = (await item.getAttribute('data-hash')) ?? ''
  await dapp.close()
  test.info().annotations.push({ type: 'status when the tab closed', description: statusAtClose ?? '' })
  expect(statusAtClose).toMatch(/^(pending|included)$/)
  expect(paymentHash).toMatch(/^0x[0-9a-f]{64}$/)
  await expect(wallet.getByTestId('request-result')).toHaveAttribute('data-status', 'sent')
  await wallet.getByTestId('request-done').click()

  // The server alone moves it to confirmed (bounded wait), read through the API with the dapp's cookie.
  const followed = async () => {
    const { body } = await api<{ payments: ApiPayment[] }>('/api/payments')
    const payment = body.payments.find((p) => p.txHash === paymentHash)
    return payment && payment.status === 'confirmed' ? payment.confirmations : -1
  }
  await expect.poll(followed, { timeout: 20_000, intervals: [500] }).toBeGreaterThanOrEqual(3)

  dapp = await contexts[0]!.newPage()
  await dapp.goto(product.origin)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  const reopened = dapp.locator(`[data-testid="payment-history-item"][data-hash="${paymentHash}"]`)
  await expect(reopened).toHaveAttribute('data-status', 'confirmed')
  expect(Number(await reopened.getAttribute('data-confirmations'))).toBeGreaterThanOrEqual(3)
  await expect(reopened.getByTestId('payment-history-amount')).toHaveText('0.01 ETH')
  await expect(reopened.getByTestId('payment-history-status')).toHaveText(
    /^Confirmed · block \d+ · \d+ confirmations$/,
  )
  await screenshot(dapp, 'records-history', { publish: true })
})

test('a payment followed on the page: its card and the history show the server’s one count', async () => {
  await dapp.getByTestId('payment-amount').fill('0.01')
  await dapp.getByTestId('payment-send-button').click()
  await answerRequest(wallet, 'eth_sendTransaction', 'approve')
  const hash = (await dapp.getByTestId('payment-hash').textContent()) ?? ''
  const card = dapp.getByTestId('payment-status')
  const item = dapp.locator(`[data-testid="payment-history-item"][data-hash="${hash}"]`)
  await expect(card).toHaveAttribute('data-source', 'server', { timeout: 15_000 })
  // Until final the count moves; each read pairs the card's line with the history's, which must agree.
  await expect
    .poll(
      async () => {
        const [shown, listed] = await Promise.all([
          card.textContent(),
          item.getByTestId('payment-history-status').textContent(),
        ])
        return shown === listed ? shown : `card "${shown}" ≠ history "${listed}"`
      },
      { timeout: 20_000 },
    )
    .toMatch(/^Confirmed · block \d+ · \d+ confirmations$/)
})

test('switching account in the wallet signs the dapp out with a message; a refused signature; sign in and out', async () => {
  await wallet.getByTestId('session-account-switch').selectOption('dev:1')
  await expect(wallet.getByTestId('session-account')).toHaveText(ACCOUNT_1)
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_1)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
  await expect(dapp.getByTestId('sign-in-result')).toHaveText(
    `The wallet switched to another account, so you were signed out. Sign in again to continue as ${ACCOUNT_1}.`,
  )
  await expect(dapp.getByTestId('payment-history')).toHaveCount(0)
  await expect
    .poll(async () => (await api<{ signedIn: boolean }>('/api/me')).body.signedIn, { timeout: 5_000 })
    .toBe(false)
  await screenshot(dapp, 'records-switched')

  await dapp.getByTestId('sign-in-button').click()
  await answerRequest(wallet, 'personal_sign', 'reject')
  await expect(dapp.getByTestId('sign-in-error')).toHaveText(
    'You refused the signature in the wallet, so you are not signed in.',
  )
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')

  await dapp.getByTestId('sign-in-button').click()
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-in-address')).toHaveText(ACCOUNT_1)
  // Another account, another history: the first account's payment is not in it.
  await expect(dapp.getByTestId('payment-history-empty')).toBeVisible()

  await dapp.getByTestId('sign-out-button').click()
  await expect(dapp.getByTestId('sign-in-result')).toHaveText('You signed out.')
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
  expect((await api<{ signedIn: boolean }>('/api/me')).body.signedIn).toBe(false)
  await dapp.reload()
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_1)
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
  await screenshot(dapp, 'records-signed-out')
})
