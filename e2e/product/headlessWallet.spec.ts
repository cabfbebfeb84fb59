import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { CLI_BUILD, CLI_PATH, startCliWallet } from './support/cliWallet.js'
import { copyPairingUri, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'

const product = withProduct()

test('headless wallet: pairlink-wallet --approve --auto-sign pairs with the web app and answers it', async ({
  page,
}) => {
  expect(existsSync(CLI_PATH), `${CLI_PATH} is missing: run npm ci`).toBe(true)
  expect(existsSync(CLI_BUILD), `${CLI_BUILD} is missing: run npm run build`).toBe(true)
  await page.goto(product.origin)
  const uri = await copyPairingUri(page)
  const wallet = startCliWallet(['--uri', uri, '--approve', '--auto-sign', '--rpc-url', product.rpcUrl])
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
    await expect(page.getByTestId('wallet-name')).toHaveText('Pairlink CLI wallet')
    await page.getByTestId('sign-message-button').click()
    await expect(page.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
    await page.getByTestId('payment-send-button').click()
    await expect(page.getByTestId('payment-status')).toHaveText(/In block \d+ · \d+ confirmations?/, {
      timeout: 20_000,
    })
    await screenshot(page, 'headless-wallet')
    expect(wallet.names()).toEqual(
      expect.arrayContaining(['pairing', 'session_request', 'connected', 'call_request']),
    )
    const methods = wallet.events.filter((e) => e.event === 'call_request').map((e) => e.method)
    expect(methods).toEqual(['personal_sign', 'eth_sendTransaction'])
  } finally {
    await wallet.stop()
  }
  // SIGTERM makes the CLI end its session; the web app says so.
  await expect(page.getByTestId('notice')).toContainText('The wallet disconnected')
})
