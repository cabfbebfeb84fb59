import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { parseEther } from 'viem'
import { type InjectedWalletOptions, injectWallets } from '../support/injectedWallet/injectWallets.js'
import { devAccount } from './support/accounts.js'
import { modal, readBalance, readBlock, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'

// The web app with wallets installed in the browser (EIP-6963): real EIP-1193 providers on the reference wallet's
// signing core, injected before the page's scripts as extensions are. They approve every request, as a person
// clicking Approve would, sign with anvil's dev keys and send to the product's own chain. The journey runs in order on
// one session, as a person would use it.

const FIRST = { name: 'Pairlink Test Wallet', rdns: 'org.pairlink.test', account: 4, color: '#0b7285' }
const SECOND = { name: 'Second Test Wallet', rdns: 'org.pairlink.second', account: 5, color: '#c2255c' }
const SEPOLIA = 11155111

const browserWallets = (page: Page) => page.getByRole('list', { name: 'Installed in this browser' })
/** The methods the page asked a wallet, in order. */
const asked = (page: Page, rdns: string) =>
  page.evaluate((rdns) => [...(window.injectedWallets[rdns]?.requests ?? [])], rdns)

const product = withProduct()

/** A fresh browser (its own storage) with `wallets` installed, knowing the dev chain and Sepolia (on the same node). */
async function browserWith(context: BrowserContext, wallets: InjectedWalletOptions[]): Promise<Page> {
  await injectWallets(context, {
    chains: { 31337: product.rpcUrl, [SEPOLIA]: product.rpcUrl },
    chainId: 31337,
    wallets,
  })
  return context.newPage()
}

test.describe('two browser wallets', () => {
  test.describe.configure({ mode: 'serial' })
  let context: BrowserContext
  let dapp: Page
  const address = devAccount(FIRST.account).address
  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext()
    dapp = await browserWith(context, [FIRST, SECOND])
  })
  test.afterAll(async () => {
    await context?.close()
  })

  test('Connect lists both wallets beside the QR code; choosing one connects through it, as a paired session', async () => {
    await dapp.goto(product.origin)
    await dapp.getByTestId('connect-button').click()
    await expect(modal(dapp)).toBeVisible()
    await expect(browserWallets(dapp).getByRole('button')).toHaveCount(2)
    await expect(browserWallets(dapp).locator('.name')).toHaveText([FIRST.name, SECOND.name])
    await screenshot(dapp, 'browser-wallets', { publish: true })
    await browserWallets(dapp).getByRole('button', { name: FIRST.name }).click()

    await expect(modal(dapp)).toHaveCount(0)
    await expect(dapp.getByTestId('account-address')).toHaveText(address)
    await expect(dapp.getByTestId('wallet-name')).toHaveText(FIRST.name)
    await expect(dapp.getByTestId('session-protocol')).toHaveText('Browser wallet')
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
    await expect(dapp.getByTestId('notice')).toHaveText(`Connected to ${FIRST.name}.`)
    expect(await readBalance(dapp)).toBeGreaterThan(0n)
    const first = await readBlock(dapp)
    await expect.poll(() => readBlock(dapp), { timeout: 10_000 }).toBeGreaterThan(first)
    // The pairing the modal had started was dropped without a word; the other wallet was never asked.
    await expect(dapp.getByTestId('notice')).not.toContainText('closed the QR window')
    expect(await asked(dapp, FIRST.rdns)).toContain('eth_requestAccounts')
    expect(await asked(dapp, SECOND.rdns)).toEqual([])
    await screenshot(dapp, 'browser-wallet-account', { publish: true })
  })

  test('sign in with Ethereum, sign a message and typed data: each signed by the wallet, verified', async () => {
    await dapp.getByTestId('sign-in-button').click()
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
    await expect(dapp.getByTestId('sign-in-result')).toHaveText(`Signed in as ${address}.`)

    await dapp.getByTestId('sign-message-input').fill('Pairlink through a browser wallet')
    await dapp.getByTestId('sign-message-button').click()
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
    await dapp.getByTestId('sign-typed-data-button').click()
    await expect(dapp.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
    const requests = await asked(dapp, FIRST.rdns)
    expect(requests.filter((method) => method === 'personal_sign')).toHaveLength(2)
    expect(requests).toContain('eth_signTypedData_v4')
  })

  test('send 0.01 ETH → sent by the wallet, in block N, recorded by the server to its confirmations', async () => {
    const recipient = await readBalance(dapp, 'payment-recipient-balance')
    await dapp.getByTestId('payment-amount').fill('0.01')
    await dapp.getByTestId('payment-send-button').click()
    const status = dapp.getByTestId('payment-status')
    await expect(status).toHaveAttribute('data-step', 'included', { timeout: 20_000 })
    await expect(status).toHaveAttribute('data-source', 'server', { timeout: 15_000 })
    await expect(status).toHaveText(/^Confirmed · block \d+ · \d+ confirmations$/, { timeout: 20_000 })
    await expect
      .poll(() => readBalance(dapp, 'payment-recipient-balance'), { timeout: 10_000 })
      .toBe(recipient + parseEther('0.01'))
    expect(await asked(dapp, FIRST.rdns)).toContain('eth_sendTransaction')
  })

  test('switch chain: the wallet moves to a chain it knows and back; refuses one it does not know', async () => {
    await dapp.getByTestId('switch-chain-select').selectOption(String(SEPOLIA))
    await dapp.getByTestId('switch-chain-button').click()
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', String(SEPOLIA))
    await expect(dapp.getByTestId('chain-mismatch')).toContainText('this app reads Anvil dev chain (31337)')
    await expect(dapp.getByTestId('account-balance')).toHaveText('Not read on this chain')

    await dapp.getByTestId('switch-chain-select').selectOption('1')
    await dapp.getByTestId('switch-chain-button').click()
    await expect(dapp.getByTestId('switch-chain-error')).toHaveText(
      'The wallet does not know this chain, so it stayed where it was.',
    )
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', String(SEPOLIA))

    await dapp.getByTestId('switch-chain-select').selectOption('31337')
    await dapp.getByTestId('switch-chain-button').click()
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
    await expect(dapp.getByTestId('chain-mismatch')).toHaveCount(0)
    expect(await readBalance(dapp)).toBeGreaterThan(0n)
  })

  test('a reload restores the session without asking the wallet again, still signed in, and it still signs', async () => {
    await dapp.reload()
    await expect(dapp.getByTestId('account-address')).toHaveText(address)
    await expect(dapp.getByTestId('notice')).toHaveText(
      `Welcome back: your session with ${FIRST.name} was restored.`,
    )
    await expect(dapp.getByTestId('session-protocol')).toHaveText('Browser wallet')
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
    // A restore asks for the accounts the site already has (`eth_accounts`), never for new ones.
    expect(await asked(dapp, FIRST.rdns)).not.toContain('eth_requestAccounts')
    await dapp.getByTestId('sign-message-button').click()
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  })

  test('the wallet switches account → the app follows it and signs the old one out', async () => {
    await dapp.evaluate(() => window.injectedWallets['org.pairlink.test']?.setAccount(6))
    const next = devAccount(6).address
    await expect(dapp.getByTestId('account-address')).toHaveText(next)
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
    await expect(dapp.getByTestId('sign-in-result')).toContainText('The wallet switched to another account')
    await dapp.evaluate(() => window.injectedWallets['org.pairlink.test']?.setAccount(4))
    await expect(dapp.getByTestId('account-address')).toHaveText(address)
  })

  test('Disconnect → the connect screen, the wallet gives the site’s access back, and a reload stays disconnected', async () => {
    await dapp.getByTestId('disconnect-button').click()
    await expect(dapp.getByTestId('notice')).toHaveText('You disconnected the wallet.')
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await expect.poll(() => asked(dapp, FIRST.rdns)).toContain('wallet_revokePermissions')
    await dapp.reload()
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await expect(dapp.getByTestId('account-address')).toHaveCount(0)
  })

  test('the other wallet, remembered first; the wallet disconnects the site → the app says so', async () => {
    await dapp.getByTestId('connect-button').click()
    // The last one chosen comes first.
    await expect(browserWallets(dapp).locator('.name')).toHaveText([FIRST.name, SECOND.name])
    await browserWallets(dapp).getByRole('button', { name: SECOND.name }).click()
    await expect(dapp.getByTestId('account-address')).toHaveText(devAccount(SECOND.account).address)
    await expect(dapp.getByTestId('wallet-name')).toHaveText(SECOND.name)

    await dapp.evaluate(() => window.injectedWallets['org.pairlink.second']?.disconnect())
    await expect(dapp.getByTestId('notice')).toHaveText(
      'The wallet disconnected. Press Connect wallet to pair again.',
    )
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await dapp.reload()
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await expect(dapp.getByTestId('account-address')).toHaveCount(0)
  })

  test('the wallet refuses the connection → a plain message, and QR pairing is offered again', async () => {
    await dapp.evaluate(() => window.injectedWallets['org.pairlink.test']?.setRefusing(true))
    await dapp.getByTestId('connect-button').click()
    await browserWallets(dapp).getByRole('button', { name: FIRST.name }).click()
    await expect(dapp.getByTestId('notice')).toHaveText('The wallet rejected the connection.')
    await expect(dapp.getByTestId('connect-button')).toBeEnabled()
    await dapp.getByTestId('connect-button').click()
    await expect(modal(dapp)).toBeVisible()
    await expect(dapp.locator('svg.walletconnect-qrcode__image')).toBeVisible()
  })
})

test('two tabs share the browser wallet’s session: connected in one, connected in the other; Disconnect ends both', async ({
  browser,
}) => {
  const context = await browser.newContext()
  try {
    const tabA = await browserWith(context, [FIRST])
    const tabB = await context.newPage()
    await Promise.all([tabA.goto(product.origin), tabB.goto(product.origin)])
    await expect(tabB.getByTestId('connect-button')).toBeVisible()
    await tabA.getByTestId('connect-button').click()
    await browserWallets(tabA).getByRole('button', { name: FIRST.name }).click()
    const address = devAccount(FIRST.account).address
    await expect(tabA.getByTestId('account-address')).toHaveText(address)
    await expect(tabB.getByTestId('account-address')).toHaveText(address)
    await expect(tabB.getByTestId('session-protocol')).toHaveText('Browser wallet')

    await tabA.getByTestId('disconnect-button').click()
    await expect(tabA.getByTestId('notice')).toHaveText('You disconnected the wallet.')
    await expect(tabB.getByTestId('notice')).toHaveText('You disconnected the wallet in another tab.')
    await expect(tabB.getByTestId('connect-button')).toBeVisible()
  } finally {
    await context.close()
  }
})

test('a wallet of before EIP-6963 (only window.ethereum): offered by its flags’ name, connects, restores after a reload', async ({
  browser,
}) => {
  const context = await browser.newContext()
  try {
    const dapp = await browserWith(context, [
      { name: 'Legacy', rdns: 'io.metamask', account: 7, legacy: { isMetaMask: true } },
    ])
    await dapp.goto(product.origin)
    await dapp.getByTestId('connect-button').click()
    await expect(browserWallets(dapp).locator('.name')).toHaveText(['MetaMask'])
    await browserWallets(dapp).getByRole('button', { name: 'MetaMask' }).click()
    const address = devAccount(7).address
    await expect(dapp.getByTestId('account-address')).toHaveText(address)
    await expect(dapp.getByTestId('wallet-name')).toHaveText('MetaMask')
    await dapp.reload()
    await expect(dapp.getByTestId('account-address')).toHaveText(address)
    await dapp.getByTestId('sign-message-button').click()
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  } finally {
    await context.close()
  }
})

test('no browser wallet: the modal offers the QR code alone, and pairing works as before', async ({
  browser,
}) => {
  const context = await browser.newContext()
  try {
    const dapp = await context.newPage()
    await dapp.goto(product.origin)
    await dapp.getByTestId('connect-button').click()
    await expect(modal(dapp)).toBeVisible()
    await expect(dapp.locator('svg.walletconnect-qrcode__image')).toBeVisible()
    await expect(browserWallets(dapp)).toHaveCount(0)
  } finally {
    await context.close()
  }
})
