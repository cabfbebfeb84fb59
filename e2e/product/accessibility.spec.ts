import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { copyPairingUri, modal, screenshot } from './support/dapp.js'
import type { Product } from './support/product.js'
import { startTwoDevices, withTwoDevices } from './support/twoDevices.js'
import { answerRequest, approveSession, pasteUri, rejectSession } from './support/walletPage.js'

// Issue 13: every screen of the web app and of the reference wallet, at a desktop and a phone width, passes axe-core
// with no violation, has one h1, and is screenshotted (e2e/screenshots/product-a11y-*.png) for a person to look at.
// The QR modal is @pairlink/modal's own shadow root, checked by its own suite: it is left out of these runs.
test.describe.configure({ mode: 'serial' })

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const

let product: Product
let dapp: Page
let wallet: Page
withTwoDevices(startTwoDevices, async (devices) => {
  ;({ product, dapp, wallet } = devices)
  await dapp.setViewportSize(WIDTHS.desktop)
  await wallet.setViewportSize(WIDTHS.desktop)
})

/** The rules that failed on the page, each with the elements it failed on: readable in a failure message. */
async function violations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).exclude('#walletconnect-wrapper').analyze()
  return violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} → ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

/**
 * Checks the screen at both widths: no axe violation, exactly one h1, no sideways scroll; saves a screenshot of
 * each. Ends at the desktop width.
 */
async function checkScreen(page: Page, name: string): Promise<void> {
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size)
    expect.soft(await violations(page), `${name} at the ${width} width`).toEqual([])
    await expect.soft(page.locator('h1'), `${name} at the ${width} width`).toHaveCount(1)
    // Reflow (WCAG 1.4.10): nothing wider than the screen, so nothing needs a sideways scroll.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect.soft(overflow, `${name} at the ${width} width: sideways overflow in px`).toBeLessThanOrEqual(0)
    await screenshot(page, `a11y-${name}-${width}`)
  }
  await page.setViewportSize(WIDTHS.desktop)
}

/** The top-left corner of each element in the page (not the viewport, which scrolls with a click). */
async function positions(locators: Locator[]): Promise<{ x: number; y: number }[]> {
  return Promise.all(
    locators.map((locator) =>
      locator.evaluate((element) => {
        const box = element.getBoundingClientRect()
        return { x: Math.round(box.left + window.scrollX), y: Math.round(box.top + window.scrollY) }
      }),
    ),
  )
}

test('signed out: the connect screen and the wallet at rest; a hint links to the wallet for someone without one', async () => {
  await dapp.goto(product.origin)
  await expect(dapp.getByTestId('connect-button')).toBeVisible()
  await checkScreen(dapp, 'dapp-signed-out')

  const hint = dapp.getByTestId('wallet-hint')
  await expect(hint).toContainText('No wallet?')
  const link = hint.getByRole('link', { name: 'Pairlink test wallet' })
  const [walletTab] = await Promise.all([dapp.context().waitForEvent('page'), link.click()])
  await expect(walletTab!).toHaveURL(`${product.origin}/wallet/`)
  await expect(walletTab!.getByTestId('uri-input')).toBeVisible()
  await walletTab!.close()

  await wallet.goto(`${product.origin}/wallet`)
  await expect(wallet.getByTestId('uri-input')).toBeVisible()
  await checkScreen(wallet, 'wallet-idle')
})

test('the wallet pairing, an unreadable link, a session request; the dapp with its modal open and after a rejection', async () => {
  // A well-formed link whose dapp never asks: the wallet waits on the pairing screen.
  const bridge = product.origin.replace(/^http/, 'ws')
  const silent = `wc:00000000-0000-4000-8000-000000000000@1?bridge=${encodeURIComponent(bridge)}&key=${'ab'.repeat(32)}`
  await wallet.getByTestId('uri-input').fill(silent)
  await wallet.getByTestId('pair-button').click()
  await expect(wallet.getByTestId('pairing')).toBeVisible()
  await checkScreen(wallet, 'wallet-pairing')
  await wallet.getByTestId('cancel-pairing').click()
  await expect(wallet.getByTestId('uri-input')).toBeVisible()

  await wallet.getByTestId('uri-input').fill('wc:not-a-link')
  await wallet.getByTestId('pair-button').click()
  await expect(wallet.getByTestId('status')).toHaveAttribute('data-tone', 'error')
  await checkScreen(wallet, 'wallet-error')

  const uri = await copyPairingUri(dapp)
  await checkScreen(dapp, 'dapp-modal')
  await pasteUri(wallet, product.origin, uri)
  await checkScreen(wallet, 'wallet-session-request')
  await rejectSession(wallet)
  await expect(dapp.getByTestId('notice')).toHaveText('The wallet rejected the connection.')
  await expect(modal(dapp)).toHaveCount(0)
  await checkScreen(dapp, 'dapp-rejected')
})

test('connected: the dapp’s account and actions, the wallet’s session and its success banner', async () => {
  const uri = await copyPairingUri(dapp)
  await pasteUri(wallet, product.origin, uri)
  await approveSession(wallet)
  await expect(wallet.getByTestId('status')).toHaveAttribute('data-tone', 'success')
  await checkScreen(wallet, 'wallet-connected')
  await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
  await expect(dapp.getByTestId('account-balance')).toHaveAttribute('data-wei', /^\d+$/)
  await checkScreen(dapp, 'dapp-connected')
})

test('call requests and their results in the wallet; signatures and a refusal in the dapp', async () => {
  await dapp.getByTestId('sign-message-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await checkScreen(wallet, 'wallet-call-request')
  await wallet.getByTestId('approve-request').click()
  await expect(wallet.getByTestId('request-result')).toHaveAttribute('data-status', 'signed')
  await checkScreen(wallet, 'wallet-signed')
  await wallet.getByTestId('request-done').click()
  await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')

  await dapp.getByTestId('sign-typed-data-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await checkScreen(wallet, 'wallet-typed-data-request')
  await wallet.getByTestId('reject-request').click()
  await expect(wallet.getByTestId('request-result')).toHaveAttribute('data-status', 'rejected')
  await checkScreen(wallet, 'wallet-rejected')
  await wallet.getByTestId('request-done').click()
  await expect(dapp.getByTestId('sign-typed-data-error')).toHaveText('The wallet rejected the request.')

  await dapp.getByTestId('payment-amount').fill('abc')
  await dapp.getByTestId('payment-send-button').click()
  await expect(dapp.getByTestId('payment-invalid')).toBeVisible()
  await checkScreen(dapp, 'dapp-results')
  await dapp.getByTestId('payment-amount').fill('0.01')
})

test('signed in with a payment: the history appears below, and nothing above it moves', async () => {
  const above = [
    'account-panel',
    'sign-in',
    'sign-message',
    'sign-typed-data',
    'switch-chain',
    'send-payment',
  ]
  const cards = above.map((id) => dapp.getByTestId(id))
  const before = await positions(cards)

  await dapp.getByTestId('sign-in-button').click()
  await answerRequest(wallet, 'personal_sign', 'approve')
  await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
  await expect(dapp.getByTestId('payment-history-empty')).toBeVisible()
  expect(await positions(cards), 'the cards once the history is shown').toEqual(before)
  await checkScreen(dapp, 'dapp-signed-in')

  await dapp.getByTestId('payment-send-button').click()
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await checkScreen(wallet, 'wallet-transaction-request')
  await wallet.getByTestId('approve-request').click()
  await expect(wallet.getByTestId('request-result')).toHaveAttribute('data-status', 'sent')
  await checkScreen(wallet, 'wallet-sent')
  await wallet.getByTestId('request-done').click()
  await expect(dapp.getByTestId('payment-history-item')).toHaveCount(1, { timeout: 15_000 })
  await expect(dapp.getByTestId('payment-status')).toHaveText(/^(In block|Confirmed)/, { timeout: 15_000 })
  expect(await positions(cards), 'the cards once a payment is listed').toEqual(before)
  await checkScreen(dapp, 'dapp-history')
  await expect(wallet.getByTestId('activity-item')).toHaveCount(4)
  await checkScreen(wallet, 'wallet-activity')
})
