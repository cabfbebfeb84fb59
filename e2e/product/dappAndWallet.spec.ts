import { type Browser, expect, type Page, test } from '@playwright/test'
import { formatEther, parseEther } from 'viem'
import { ACCOUNT_0 } from './support/accounts.js'
import {
  copyPairingUri,
  modal,
  type Protocol,
  readBalance,
  readBlock,
  readStoredSession,
  screenshot,
} from './support/dapp.js'
import type { Product } from './support/product.js'
import { startTwoDevices, type TwoDevices, withTwoDevices } from './support/twoDevices.js'
import {
  KNOWN_PROJECT_ID,
  type NetworkDevices,
  startTwoDevicesOnNetwork,
  upgradesFrom,
} from './support/walletConnectNetwork.js'
import {
  answerRequest,
  approveSession,
  disconnectWallet,
  pasteUri,
  rejectSession,
} from './support/walletPage.js'

// One server, the web app and the reference wallet as two pages in two contexts (their own storage, as on two
// devices). The tests run in order on one session, as a person would use it: once over v1, once over v2 on the
// server's own relay, and once over v2 through WalletConnect's network (its stand-in, under its real name).
test.describe('over WalletConnect v1', () => journey(1))
test.describe('over WalletConnect v2', () => journey(2))
test.describe('over WalletConnect’s network', () => {
  let network: NetworkDevices | undefined
  journey(2, {
    start: async () => {
      network = await startTwoDevicesOnNetwork()
      return network
    },
    prefix: 'wc-network-',
  })

  // Both pages took their relay from /api/config: had either quietly used the server's own relay, the pairing above
  // could not have crossed, and the stand-in would have seen fewer pages (or none) with this project and origin.
  test('the stand-in carried it: upgrades from the page’s origin with the project id, every one accepted', () => {
    const { network: standIn, product } = network as NetworkDevices
    const attempts = upgradesFrom(standIn, product.origin)
    // At least the web app's and the wallet page's first sockets, and the reloads' after them.
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    for (const attempt of attempts)
      expect(attempt).toMatchObject({ projectId: KNOWN_PROJECT_ID, outcome: 'open' })
    expect(standIn.upgrades.filter((attempt) => attempt.outcome === 'refused')).toEqual([])
  })
})

/** How a journey starts its devices, and the prefix of its screenshots' names. */
type JourneyOptions = { start?: (browser: Browser) => Promise<TwoDevices>; prefix?: string }

/** The product journey with the web app and the reference wallet page, paired over `protocol`. */
function journey(protocol: Protocol, options: JourneyOptions = {}) {
  // Serial per protocol: a failure skips the rest of its own journey, not the other protocol's.
  test.describe.configure({ mode: 'serial' })
  let product: Product
  let dapp: Page
  let wallet: Page
  withTwoDevices(options.start ?? startTwoDevices, async (devices) => {
    ;({ product, dapp, wallet } = devices)
  })

  const shoot = (page: Page, name: string, shot: { publish?: boolean } = {}) =>
    screenshot(page, `${options.prefix ?? ''}${name}`, { ...shot, protocol })
  const storedSession = () => readStoredSession(dapp, protocol)

  test('connect: the modal’s copied link pasted into the wallet; approve; address, balance and a rising block', async () => {
    await dapp.goto(product.origin)
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await shoot(dapp, 'connect', { publish: true })
    const uri = await copyPairingUri(dapp, protocol)
    await shoot(dapp, 'modal-qr', { publish: true })
    await pasteUri(wallet, product.origin, uri)
    await shoot(wallet, 'wallet-session-request')
    await approveSession(wallet)

    await expect(modal(dapp)).toHaveCount(0)
    await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await expect(dapp.getByTestId('wallet-name')).not.toHaveText('')
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
    await expect(dapp.getByTestId('bridge-state')).toHaveAttribute('data-state', 'open')
    await expect(dapp.getByTestId('session-protocol')).toHaveText(`WalletConnect v${protocol}`)
    await expect(wallet.getByTestId('protocol-version')).toHaveText(`WalletConnect v${protocol}`)
    expect(await readBalance(dapp)).toBeGreaterThan(0n)
    await expect.poll(() => readBlock(dapp), { timeout: 10_000 }).toBeGreaterThan(0)
    const first = await readBlock(dapp)
    await expect.poll(() => readBlock(dapp), { timeout: 10_000 }).toBeGreaterThan(first)
    await shoot(dapp, 'account', { publish: true })
  })

  test('sign in with Ethereum: the wallet signs the EIP-4361 message; signed in as the account', async () => {
    // Over v2 the web app and the wallet page connected and signed in with one approval (one-click auth): signed out
    // first, the ordinary sign-in is what this step checks.
    if (protocol === 2) {
      await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
      await dapp.getByTestId('sign-out-button').click()
    }
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
    await dapp.getByTestId('sign-in-button').click()
    await expect(wallet.getByTestId('call-request')).toBeVisible({ timeout: 15_000 })
    await expect(wallet.getByTestId('message-text')).toContainText(
      `${new URL(product.origin).host} wants you to sign in with your Ethereum account:`,
    )
    await answerRequest(wallet, 'personal_sign', 'approve')
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
    await expect(dapp.getByTestId('sign-in-result')).toHaveText(`Signed in as ${ACCOUNT_0}.`)
  })

  test('sign a message → verified; sign typed data v4 → verified', async () => {
    await dapp.getByTestId('sign-message-input').fill('Pairlink end-to-end')
    await dapp.getByTestId('sign-message-button').click()
    await answerRequest(wallet, 'personal_sign', 'approve')
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')

    await dapp.getByTestId('sign-typed-data-button').click()
    await shoot(wallet, 'wallet-call-request')
    await answerRequest(wallet, 'eth_signTypedData_v4', 'approve')
    await expect(dapp.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
    await shoot(dapp, 'signed', { publish: true })
  })

  test('send 0.01 ETH → in block N, followed by the server to its confirmations; both balances change', async () => {
    const sender = await readBalance(dapp)
    const recipient = await readBalance(dapp, 'payment-recipient-balance')
    await dapp.getByTestId('payment-amount').fill('0.01')
    await dapp.getByTestId('payment-send-button').click()
    await expect(dapp.getByTestId('payment-status')).toHaveAttribute('data-step', 'signing')
    await answerRequest(wallet, 'eth_sendTransaction', 'approve')
    const status = dapp.getByTestId('payment-status')
    await expect(status).toHaveAttribute('data-step', 'included', { timeout: 20_000 })
    // Signed in, the card shows the server's record of the payment, the one the history lists.
    await expect(status).toHaveAttribute('data-source', 'server', { timeout: 15_000 })
    const hash = (await dapp.getByTestId('payment-hash').textContent()) ?? ''
    const item = dapp.locator(`[data-testid="payment-history-item"][data-hash="${hash}"]`)
    await expect(item.getByTestId('payment-history-amount')).toHaveText('0.01 ETH')
    await expect(status).toHaveText(/^Confirmed · block \d+ · \d+ confirmations$/, { timeout: 20_000 })
    await expect(item).toHaveAttribute('data-status', 'confirmed')
    const confirmations = async () => Number(await status.getAttribute('data-confirmations'))
    await expect.poll(confirmations, { timeout: 15_000 }).toBeGreaterThanOrEqual(3)
    await expect
      .poll(() => readBalance(dapp, 'payment-recipient-balance'), { timeout: 10_000 })
      .toBe(recipient + parseEther('0.01'))
    // The sender pays the amount plus gas.
    await expect.poll(() => readBalance(dapp), { timeout: 10_000 }).toBeLessThan(sender - parseEther('0.01'))
    await shoot(dapp, 'payment', { publish: true })
  })

  test('the wallet rejects a request → a plain message', async () => {
    await dapp.getByTestId('sign-message-button').click()
    await answerRequest(wallet, 'personal_sign', 'reject')
    await expect(dapp.getByTestId('sign-message-error')).toHaveText('The wallet rejected the request.')
    await shoot(dapp, 'request-rejected')
  })

  // Over v1 the app asks the wallet (`wallet_switchEthereumChain`), which may refuse. Over v2 the wallet granted the
  // app's chains when it approved the session, and moving among them is the app's own choice (as the published
  // universal provider does): the wallet is not asked.
  if (protocol === 1)
    test('switch chain: the wallet refuses → a clear message, the chain stays', async () => {
      await dapp.getByTestId('switch-chain-select').selectOption('1')
      await dapp.getByTestId('switch-chain-button').click()
      // The wallet may refuse on its own (unknown chain) or ask the person, who refuses.
      const asked = wallet.getByTestId('call-request')
      const refused = dapp.getByTestId('switch-chain-error')
      const either = async () => (await asked.isVisible()) || (await refused.isVisible())
      await expect.poll(either, { timeout: 15_000 }).toBe(true)
      if (await asked.isVisible()) await answerRequest(wallet, 'wallet_switchEthereumChain', 'reject')
      await expect(refused).toHaveText(/refused to switch|does not know this chain/)
      await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
    })
  else
    test('switch chain within the session: the app moves without asking the wallet, says so, and back', async () => {
      await dapp.getByTestId('switch-chain-select').selectOption('1')
      await dapp.getByTestId('switch-chain-button').click()
      await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '1')
      // The session moved, not the wallet: its page still shows the dev chain, and no text says otherwise.
      await expect(wallet.getByTestId('session-chain-switch')).toHaveValue('31337')
      await expect(dapp.getByTestId('switch-chain-result')).toHaveText(
        'This session is now on Ethereum (1); each request tells the wallet its chain.',
      )
      await expect(dapp.getByTestId('chain-mismatch')).toHaveText(
        'This session is on Ethereum (1), but this app reads Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) to see its balance and send payments here.',
      )
      await expect(dapp.locator('main')).not.toContainText(/The wallet (switched to|is on)/)

      await dapp.getByTestId('switch-chain-select').selectOption('31337')
      await dapp.getByTestId('switch-chain-button').click()
      await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
      await expect(dapp.getByTestId('switch-chain-result')).toHaveText(
        'This session is now on Anvil dev chain (31337); each request tells the wallet its chain.',
      )
      await expect(dapp.getByTestId('chain-mismatch')).toHaveCount(0)
      await expect(wallet.getByTestId('call-request')).toHaveCount(0)
    })

  test('the wallet moves to another chain → old results cleared, a warning instead of the dev chain’s figures', async () => {
    await dapp.getByTestId('sign-message-button').click()
    await answerRequest(wallet, 'personal_sign', 'approve')
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
    await expect(dapp.getByTestId('chain-mismatch')).toHaveCount(0)
    // Left by the switch above (v1's refusal, v2's move): true until the wallet moves.
    const switched = dapp.getByTestId(protocol === 1 ? 'switch-chain-error' : 'switch-chain-result')
    await expect(switched).toBeVisible()

    await wallet.getByTestId('session-chain-switch').selectOption('11155111')
    await expect(dapp.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '11155111')
    await expect(dapp.getByTestId('chain-mismatch')).toContainText('this app reads Anvil dev chain (31337)')
    // Signed on another chain's session: no longer shown as holding.
    await expect(dapp.getByTestId('sign-message-verified')).toHaveCount(0)
    await expect(switched).toHaveCount(0)
    await expect(dapp.getByTestId('account-balance')).toHaveText('Not read on this chain')
    await expect(dapp.getByTestId('block-number')).toHaveText('Not read on this chain')
    await shoot(dapp, 'chain-mismatch')
    // A payment now would go to the dev node signed for another chain: the app says why instead of asking.
    await dapp.getByTestId('payment-amount').fill('0.01')
    await dapp.getByTestId('payment-send-button').click()
    // v1's wallet holds the chain; over v2 the wallet moved the session, and the app can move it back (Switch chain).
    await expect(dapp.getByTestId('payment-invalid')).toHaveText(
      protocol === 1
        ? 'The wallet is on another chain (Sepolia (11155111)): payments here go on Anvil dev chain (31337). Switch the wallet back first.'
        : 'This session is on another chain (Sepolia (11155111)): payments here go on Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) first.',
    )
    await expect(dapp.getByTestId('payment-status')).toHaveCount(0)

    await wallet.getByTestId('session-chain-switch').selectOption('31337')
    await expect(dapp.getByTestId('chain-mismatch')).toHaveCount(0)
    const balance = await readBalance(dapp)
    await expect.poll(() => readBlock(dapp), { timeout: 15_000 }).toBeGreaterThan(0)

    // More than the balance: insufficient funds, said as such, and the wallet is not asked for a doomed payment.
    await dapp.getByTestId('payment-amount').fill(formatEther(balance + parseEther('1')))
    await dapp.getByTestId('payment-send-button').click()
    await expect(dapp.getByTestId('payment-invalid')).toHaveText(
      'Not enough ETH to pay this amount plus the network fee.',
    )
    await expect(dapp.getByTestId('payment-status')).toHaveCount(0)
    await dapp.getByTestId('payment-amount').fill('0.01')
  })

  test('a reload of the web app restores the session, which still works', async () => {
    expect(await storedSession()).toContain(ACCOUNT_0)
    await dapp.reload()
    await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await expect(dapp.getByTestId('notice')).toContainText('Welcome back')
    await expect(dapp.getByTestId('bridge-state')).toHaveAttribute('data-state', 'open')
    await dapp.getByTestId('sign-message-button').click()
    await answerRequest(wallet, 'personal_sign', 'approve')
    await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  })

  test('the wallet disconnects → the web app shows it', async () => {
    await disconnectWallet(wallet)
    await expect(dapp.getByTestId('notice')).toHaveText(/The wallet disconnected/)
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await shoot(dapp, 'wallet-disconnected', { publish: true })
    // Nothing left to restore: the stored session is gone (a reload restored it while it was there, above), and the
    // connect screen after a reload is the app's answer to it, as localStorage is read before the first render.
    await expect.poll(() => storedSession()).toBeNull()
    await dapp.reload()
    await expect(dapp.getByTestId('connect-button')).toBeVisible()
    await expect(dapp.getByTestId('account-address')).toHaveCount(0)
  })

  test('the wallet rejects the session → a plain message', async () => {
    const uri = await copyPairingUri(dapp, protocol)
    await pasteUri(wallet, product.origin, uri)
    await rejectSession(wallet)
    await expect(dapp.getByTestId('notice')).toHaveText('The wallet rejected the connection.')
    await expect(modal(dapp)).toHaveCount(0)
    await shoot(dapp, 'session-rejected', { publish: true })
  })

  test('the person closes the modal → a plain message', async () => {
    await dapp.getByTestId('connect-button').click()
    await expect(modal(dapp)).toBeVisible()
    await dapp.getByRole('button', { name: 'Close' }).click()
    await expect(modal(dapp)).toHaveCount(0)
    await expect(dapp.getByTestId('notice')).toHaveText(/^You closed the QR window/)
    await shoot(dapp, 'modal-closed', { publish: true })
  })

  test('disconnect from the web app → the wallet sees the session end', async () => {
    const uri = await copyPairingUri(dapp, protocol)
    await pasteUri(wallet, product.origin, uri)
    await approveSession(wallet)
    await expect(dapp.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await dapp.getByTestId('disconnect-button').click()
    await expect(dapp.getByTestId('notice')).toHaveText('You disconnected the wallet.')
    await expect(wallet.getByTestId('session-card')).toHaveCount(0, { timeout: 10_000 })
  })
}
