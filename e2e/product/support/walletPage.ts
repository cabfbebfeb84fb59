import { expect, type Page } from '@playwright/test'

// The reference wallet's data-testids, as listed in apps/wallet/README.md.

/**
 * Opens the reference wallet at `/wallet`, pastes the URI into its pairing box and waits for the session request — or,
 * for a dapp that also asks to sign in (the web app over v2: one-click auth), the sign-in prompt.
 */
export async function pasteUri(wallet: Page, origin: string, uri: string): Promise<void> {
  await wallet.goto(`${origin}/wallet`)
  await wallet.getByTestId('uri-input').fill(uri)
  await wallet.getByTestId('pair-button').click()
  await expect(wallet.getByTestId('session-request').or(wallet.getByTestId('auth-request'))).toBeVisible({
    timeout: 15_000,
  })
}

/**
 * Approves the pending session request with the preselected account (dev account 0) and chain; a sign-in prompt
 * (one-click auth) is approved as such, which connects and signs in.
 */
export async function approveSession(wallet: Page): Promise<void> {
  const auth = wallet.getByTestId('approve-auth')
  await ((await auth.isVisible()) ? auth : wallet.getByTestId('approve-session')).click()
  await expect(wallet.getByTestId('session-card')).toBeVisible()
}

/** Rejects the pending session request (or sign-in prompt, for one-click auth). */
export async function rejectSession(wallet: Page): Promise<void> {
  const auth = wallet.getByTestId('reject-auth')
  await ((await auth.isVisible()) ? auth : wallet.getByTestId('reject-session')).click()
  await expect(wallet.getByTestId('session-request')).toHaveCount(0)
  await expect(wallet.getByTestId('auth-request')).toHaveCount(0)
}

/**
 * Waits for the next call request, checks its method, and approves or rejects it; then dismisses the result
 * screen so the wallet is back home for the next one.
 */
export async function answerRequest(
  wallet: Page,
  method: string,
  decision: 'approve' | 'reject',
): Promise<void> {
  await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
  await expect(wallet.getByTestId('request-method')).toHaveText(method)
  await wallet.getByTestId(decision === 'approve' ? 'approve-request' : 'reject-request').click()
  const result = wallet.getByTestId('request-result')
  await expect(result).toBeVisible({ timeout: 15_000 })
  await wallet.getByTestId('request-done').click()
  await expect(result).toHaveCount(0)
}

/** Ends the session from the wallet's side. */
export async function disconnectWallet(wallet: Page): Promise<void> {
  await wallet.getByTestId('disconnect-button').click()
  await expect(wallet.getByTestId('session-card')).toHaveCount(0)
}
