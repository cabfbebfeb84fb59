import { expect, type Page, test } from '@playwright/test'
import { ACCOUNT_0, ACCOUNT_1 } from './support/accounts.js'
import { copyPairingUri } from './support/dapp.js'
import type { Product } from './support/product.js'
import { startTwoDevices, withTwoDevices } from './support/twoDevices.js'
import { answerRequest, approveSession, disconnectWallet, pasteUri } from './support/walletPage.js'

// Two tabs of the web app in one browser context (one localStorage, one origin: one shared session) and the
// reference wallet in another context, over WalletConnect v1 and over v2 alike. The tests of each run in order on
// one session, as a person would use it.
test.describe.configure({ mode: 'serial' })

/** The tab shows no outcome of a signing card: no result, no error, and its button is not waiting. */
async function expectIdle(tab: Page, card: 'sign-message' | 'sign-typed-data', label: string) {
  await expect(tab.getByTestId(`${card}-verified`)).toHaveCount(0)
  await expect(tab.getByTestId(`${card}-error`)).toHaveCount(0)
  await expect(tab.getByTestId(`${card}-cancel`)).toHaveCount(0)
  await expect(tab.getByTestId(`${card}-button`)).toHaveText(label)
}

for (const protocol of [1, 2] as const) {
  test.describe(`over WalletConnect v${protocol}`, () => {
    let product: Product
    let tabA: Page
    let tabB: Page
    let wallet: Page
    withTwoDevices(startTwoDevices, async (devices) => {
      ;({ product, dapp: tabA, wallet } = devices)
      tabB = await devices.contexts[0]!.newPage()
    })

    /** The relay's count of accepted v2 messages (its `/metrics`). */
    const published = async () => {
      const metrics = await (await fetch(`${product.origin}/metrics`)).text()
      return Number(
        /^pairlink_relay_v2_messages_published(?:_total)? (\d+)/m.exec(metrics)?.[1] ?? Number.NaN,
      )
    }

    /** What the tab keeps of the session: v1's stored session, or v2's sessions. */
    const stored = (tab: Page) =>
      tab.evaluate(
        (v) =>
          v === 1
            ? localStorage.getItem('walletconnect')
            : (JSON.parse(localStorage.getItem('pairlink-v2') ?? '{}') as { sessions?: object }).sessions,
        protocol,
      )

    test('connect in tab A → tab B, open beside it, picks up the session', async () => {
      await tabA.goto(product.origin)
      await tabB.goto(product.origin)
      await expect(tabB.getByTestId('connect-button')).toBeVisible()
      const uri = await copyPairingUri(tabA, protocol)
      await pasteUri(wallet, product.origin, uri)
      await approveSession(wallet)

      await expect(tabA.getByTestId('account-address')).toHaveText(ACCOUNT_0)
      await expect(tabB.getByTestId('account-address')).toHaveText(ACCOUNT_0)
      await expect(tabB.getByTestId('bridge-state')).toHaveAttribute('data-state', 'open')
      await expect(tabB.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')
    })

    test('a request made in one tab is answered in that tab only, and the wallet asks once', async () => {
      const activity = wallet.getByTestId('activity-item')
      const before = await activity.count()

      await tabA.getByTestId('sign-message-button').click()
      await answerRequest(wallet, 'personal_sign', 'approve')
      await expect(tabA.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
      await expectIdle(tabB, 'sign-message', 'Sign message')

      // The wallet's next request is tab B's: a second prompt for tab A's message would have come first.
      await tabB.getByTestId('sign-typed-data-button').click()
      await answerRequest(wallet, 'eth_signTypedData_v4', 'approve')
      await expect(tabB.getByTestId('sign-typed-data-verified')).toHaveAttribute('data-verified', 'true')
      await expectIdle(tabA, 'sign-typed-data', 'Sign typed data')

      // A rejection too stays in its own tab.
      await tabB.getByTestId('sign-message-button').click()
      await answerRequest(wallet, 'personal_sign', 'reject')
      await expect(tabB.getByTestId('sign-message-error')).toHaveText('The wallet rejected the request.')
      await expect(tabA.getByTestId('sign-message-error')).toHaveCount(0)
      await expect(tabA.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')

      await expect(activity).toHaveCount(before + 3)
      await expect(wallet.getByTestId('call-request')).toHaveCount(0)
    })

    test('the wallet switches chain and account → both tabs follow', async () => {
      await wallet.getByTestId('session-chain-switch').selectOption('11155111')
      for (const tab of [tabA, tabB])
        await expect(tab.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '11155111')
      await wallet.getByTestId('session-chain-switch').selectOption('31337')
      for (const tab of [tabA, tabB])
        await expect(tab.getByTestId('chain-name')).toHaveAttribute('data-chain-id', '31337')

      const before = protocol === 2 ? await published() : 0
      await wallet.getByTestId('session-account-switch').selectOption('dev:1')
      for (const tab of [tabA, tabB]) await expect(tab.getByTestId('account-address')).toHaveText(ACCOUNT_1)
      await wallet.getByTestId('session-account-switch').selectOption('dev:0')
      for (const tab of [tabA, tabB]) await expect(tab.getByTestId('account-address')).toHaveText(ACCOUNT_0)
      if (protocol === 2) {
        // One tab answers the wallet's session updates (the one holding the tabs' Web Lock): per switch the update,
        // one answer, the event. A signature's round trip after it lets a second answer, if any, land first.
        await tabA.getByTestId('sign-message-button').click()
        await answerRequest(wallet, 'personal_sign', 'approve')
        await expect(tabA.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
        expect((await published()) - before).toBe(2 * 3 + 2)
      }
    })

    test('disconnect in tab A → tab B shows it at once; the wallet sees the session end', async () => {
      await tabA.getByTestId('disconnect-button').click()
      await expect(tabA.getByTestId('notice')).toHaveText('You disconnected the wallet.')
      await expect(tabB.getByTestId('connect-button')).toBeVisible()
      await expect(tabB.getByTestId('account-address')).toHaveCount(0)
      await expect(tabB.getByTestId('notice')).toHaveText('You disconnected the wallet in another tab.')
      await expect(wallet.getByTestId('session-card')).toHaveCount(0)
      expect(await stored(tabB)).toEqual(protocol === 1 ? null : {})
    })

    test('connect in tab B → tab A picks it up; the wallet disconnects → both tabs show it', async () => {
      const uri = await copyPairingUri(tabB, protocol)
      await pasteUri(wallet, product.origin, uri)
      await approveSession(wallet)
      for (const tab of [tabB, tabA]) await expect(tab.getByTestId('account-address')).toHaveText(ACCOUNT_0)

      // The new session works from the tab that picked it up.
      await tabA.getByTestId('sign-message-button').click()
      await answerRequest(wallet, 'personal_sign', 'approve')
      await expect(tabA.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
      await expectIdle(tabB, 'sign-message', 'Sign message')

      await disconnectWallet(wallet)
      for (const tab of [tabA, tabB]) {
        await expect(tab.getByTestId('notice')).toHaveText(/^The wallet disconnected/)
        await expect(tab.getByTestId('connect-button')).toBeVisible()
      }
    })
  })
}
