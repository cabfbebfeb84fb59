import { expect, test } from '@playwright/test'
import { verifyMessage } from 'viem'
import { ACCOUNT_0 } from './support/accounts.js'
import { copyPairingUri, modal, readBalance, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'
import { startV1Dapp } from './support/v1Dapp.js'
import { startV1Wallet } from './support/v1Wallet.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// `window.v1dapp` is declared by the page (support/v1dapp/page.ts).

const product = withProduct()

test('cross-implementation: the web app pairs with the published v1 client running as a wallet in Node', async ({
  page,
}) => {
  await page.goto(product.origin)
  const uri = await copyPairingUri(page)
  const wallet = startV1Wallet({ uri, rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    expect(await wallet.sessionRequested).toBe('Pairlink')
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await expect(page.getByTestId('wallet-name')).toHaveText('v1 Node wallet')
    await readBalance(page)

    await page.getByTestId('sign-message-button').click()
    await expect(page.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')

    await page.getByTestId('sign-typed-data-button').click()
    await expect(page.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')

    await page.getByTestId('payment-send-button').click()
    await expect(page.getByTestId('payment-status')).toHaveText(/In block \d+ · \d+ confirmations?/, {
      timeout: 20_000,
    })
    await screenshot(page, 'v1-wallet-connected')
    expect(wallet.requests).toEqual(['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'])
  } finally {
    wallet.close()
  }
})

test('cross-implementation: a v1 dapp (@walletconnect/client 1.8.0 with our modal) pairs with the wallet page', async ({
  browser,
}) => {
  const v1 = await startV1Dapp(product.origin)
  const contexts = [
    await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] }),
    await browser.newContext(),
  ]
  try {
    const dapp = await contexts[0]!.newPage()
    const wallet = await contexts[1]!.newPage()
    await dapp.goto(`${v1.url}/?bridge=${encodeURIComponent(product.origin)}`)
    await dapp.getByRole('button', { name: 'Connect (v1)' }).click()
    await expect(modal(dapp)).toBeVisible()
    await dapp.getByRole('button', { name: 'Copy to clipboard' }).click()
    const uri = await dapp.evaluate(() => navigator.clipboard.readText())
    await screenshot(dapp, 'v1-dapp-modal')

    await pasteUri(wallet, product.origin, uri)
    await expect(wallet.getByTestId('session-request')).toContainText('v1 dapp')
    await approveSession(wallet)
    await expect.poll(() => dapp.evaluate(() => window.v1dapp.status), { timeout: 15_000 }).toBe('connected')
    await expect(modal(dapp)).toHaveCount(0)
    expect(await dapp.evaluate(() => window.v1dapp.accounts)).toEqual([ACCOUNT_0])

    const signed = dapp.evaluate(() => window.v1dapp.sign('Hello from a v1 dapp'))
    await answerRequest(wallet, 'personal_sign', 'approve')
    await signed
    const signature = (await dapp.evaluate(() => window.v1dapp.signature)) as `0x${string}`
    expect(await verifyMessage({ address: ACCOUNT_0, message: 'Hello from a v1 dapp', signature })).toBe(true)
  } finally {
    for (const context of contexts) await context.close()
    await v1.close()
  }
})
