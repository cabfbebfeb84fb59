import { type Browser, expect, type Page, test } from '@playwright/test'
import { copyPairingUri, type Protocol } from './support/dapp.js'
import { startTwoDevices, type TwoDevices } from './support/twoDevices.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// A request's life in the web app's card (docs/request-lifecycle.md), from the provider's `requestStatus` events:
// over v1 the bridge confirms nothing (sent, then answered); over v2 the relay says it keeps the request (sent,
// relayed, answered). A wallet gone after pairing: the request ends in "expired" at its deadline (?walletTimeout).
test.describe.configure({ mode: 'serial' })

const TEXT = {
  sent1: 'Sent to the bridge. Waiting for your wallet’s answer.',
  relayed: 'The relay has your request. Waiting for your wallet’s answer.',
  expired: 'Expired: your wallet did not answer in time. You can try again.',
}
const SEQUENCE: Record<Protocol, string> = { 1: 'sent answered', 2: 'sent relayed answered' }

/** The web app paired over `protocol` with the wallet page, opened at `search` (`?walletTimeout=…`). */
async function paired(browser: Browser, protocol: Protocol, search = ''): Promise<TwoDevices> {
  const devices = await startTwoDevices(browser)
  const { product, dapp, wallet } = devices
  await dapp.goto(`${product.origin}/${search}`)
  await pasteUri(wallet, product.origin, await copyPairingUri(dapp, protocol))
  await approveSession(wallet)
  await expect(dapp.getByTestId('sign-message-button')).toBeEnabled({ timeout: 15_000 })
  return devices
}

const life = (dapp: Page) => dapp.getByTestId('sign-message-life')

for (const protocol of [1, 2] as const) {
  test.describe(`v${protocol}`, () => {
    let devices: TwoDevices | undefined
    test.afterEach(async () => {
      await devices?.stop()
      devices = undefined
    })

    test('a request the wallet answers: each step in order, in the card’s words, with the time left', async ({
      browser,
    }) => {
      test.setTimeout(180_000)
      devices = await paired(browser, protocol)
      const { dapp, wallet } = devices
      await dapp.getByTestId('sign-message-button').click()
      // The wallet shows the request: the card is at its last step before the answer.
      await expect(wallet.getByTestId('request-method')).toHaveText('personal_sign', { timeout: 15_000 })
      await expect(life(dapp)).toHaveText(protocol === 1 ? TEXT.sent1 : TEXT.relayed)
      await expect(life(dapp)).toHaveAttribute('aria-live', 'polite')
      await expect(dapp.getByTestId('sign-message-expiry')).toHaveText(/^Expires in [0-5]:\d\d$/)
      await answerRequest(wallet, 'personal_sign', 'approve')
      await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
      await expect(life(dapp)).toHaveAttribute('data-steps', SEQUENCE[protocol])
      await expect(life(dapp)).toHaveText('')
      await expect(dapp.getByTestId('sign-message-expiry')).toHaveText('')
      // The steps' times never go back.
      const times = ((await life(dapp).getAttribute('data-at')) ?? '').split(' ').map(Number)
      expect(times).toEqual([...times].sort((a, b) => a - b))
    })

    test('a wallet gone after pairing: the request ends in "expired" at its deadline, and the card is usable again', async ({
      browser,
    }) => {
      test.setTimeout(180_000)
      devices = await paired(browser, protocol, '?walletTimeout=4000')
      const { dapp, wallet } = devices
      await wallet.close()
      const button = dapp.getByTestId('sign-message-button')
      await button.click()
      await expect(life(dapp)).toHaveText(protocol === 1 ? TEXT.sent1 : TEXT.relayed)
      await expect(life(dapp)).toHaveText(TEXT.expired, { timeout: 15_000 })
      await expect(life(dapp)).toHaveAttribute(
        'data-steps',
        protocol === 1 ? 'sent expired' : 'sent relayed expired',
      )
      const expiresAt = Number(await life(dapp).getAttribute('data-expires-at'))
      const expiredAt = Number(((await life(dapp).getAttribute('data-at')) ?? '').split(' ').at(-1))
      expect(expiredAt).toBeGreaterThanOrEqual(expiresAt)
      await expect(dapp.getByTestId('sign-message-expiry')).toHaveText('')
      await expect(button).toHaveText('Sign message')
      await expect(button).toBeEnabled()
    })
  })
}
