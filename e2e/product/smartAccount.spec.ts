import { getSmartAccountAddress } from '@pairlink/smart-account'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { devAccount } from './support/accounts.js'
import { startCliWallet } from './support/cliWallet.js'
import { copyPairingUri, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// The reference wallet as a smart account on the product's dev chain (its factory deployed at the fixed address by
// the server's dev-chain start): the web app connects, signs in through /api/verify (the server checks the signature
// through the chain: EIP-1271 for a deployed account, EIP-6492 for one that is not) and verifies a signed message.

const product = withProduct()
const KINDS = [
  { kind: 'deployed', index: 3, option: 'Its smart account, deployed (EIP-1271)' },
  { kind: 'counterfactual', index: 4, option: 'Its smart account, not deployed (EIP-6492)' },
] as const

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  return context.newPage()
}

/** Checks the rpc proxy's view of the account: code when deployed, none when counterfactual. */
async function hasCode(address: string): Promise<boolean> {
  const response = await fetch(`${product.rpcUrl}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: product.origin },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }),
  })
  return ((await response.json()) as { result: string }).result !== '0x'
}

for (const { kind, index } of KINDS) {
  test(`pairlink-wallet --smart-account ${kind}: the web app signs in as the smart account`, async ({
    browser,
  }) => {
    const address = getSmartAccountAddress({ owner: devAccount(index).address })
    const dapp = await newPage(browser)
    await dapp.goto(product.origin)
    const uri = await copyPairingUri(dapp, 2)
    const wallet = startCliWallet([
      '--uri',
      uri,
      '--approve',
      '--auto-sign',
      '--rpc-url',
      product.rpcUrl,
      '--account-index',
      String(index),
      '--smart-account',
      kind,
    ])
    try {
      await expect(dapp.getByTestId('account-address')).toHaveText(address, { timeout: 20_000 })
      // Connected and signed in with one approval: the CLI's CACAO, signed as the smart account, checked by the
      // server through the chain. Signed out, the ordinary sign-in (personal_sign) works as the smart account too.
      await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
      await expect(dapp.getByTestId('sign-in-address')).toHaveText(address)
      await dapp.getByTestId('sign-out-button').click()
      await dapp.getByTestId('sign-in-button').click()
      await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
      await expect(dapp.getByTestId('sign-in-result')).toHaveText(`Signed in as ${address}.`)
      await dapp.getByTestId('sign-message-button').click()
      await expect(dapp.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
      expect(await hasCode(address)).toBe(kind === 'deployed')
      expect(wallet.events.find((e) => e.event === 'pairing')).toMatchObject({
        account: address,
        smartAccount: kind,
      })
    } finally {
      await wallet.stop()
      await dapp.context().close()
    }
  })
}

for (const { kind, index, option } of KINDS) {
  test(`the wallet page acting as its ${kind} smart account: the web app signs in as it`, async ({
    browser,
  }) => {
    // Keys of their own (not the CLI's above): each key has one smart account on this chain.
    const key = index + 3
    const address = getSmartAccountAddress({ owner: devAccount(key).address })
    const [dapp, wallet] = [await newPage(browser), await newPage(browser)]
    try {
      await wallet.goto(`${product.origin}/wallet`)
      await wallet.getByTestId('account-select').selectOption(`dev:${key}`)
      await wallet.getByTestId('account-kind-select').selectOption({ label: option })
      await expect(wallet.getByTestId('account-address')).toHaveText(address)
      await screenshot(wallet, `wallet-smart-account-${kind}`)
      await dapp.goto(product.origin)
      await pasteUri(wallet, product.origin, await copyPairingUri(dapp, 2))
      await approveSession(wallet)
      await expect(dapp.getByTestId('account-address')).toHaveText(address, { timeout: 15_000 })
      // One approval connected and signed in as the smart account (its CACAO checked by the server through the chain);
      // signed out, the ordinary sign-in works as it too.
      await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
      await expect(dapp.getByTestId('sign-in-address')).toHaveText(address)
      await dapp.getByTestId('sign-out-button').click()

      await dapp.getByTestId('sign-in-button').click()
      await answerRequest(wallet, 'personal_sign', 'approve')
      await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
      await expect(dapp.getByTestId('sign-in-result')).toHaveText(`Signed in as ${address}.`)
      expect(await hasCode(address)).toBe(kind === 'deployed')
    } finally {
      await dapp.context().close()
      await wallet.context().close()
    }
  })
}

test('the wallet page elsewhere than the dev chain: "Acts as" is disabled and says why', async ({
  browser,
}) => {
  const wallet = await newPage(browser)
  try {
    // The page reads its chain from /api/config: answered here as a server on another chain would answer it.
    await wallet.route('**/api/config', async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, json: { ...(await response.json()), chainId: 1 } })
    })
    await wallet.goto(`${product.origin}/wallet`)
    await expect(wallet.getByTestId('account-kind-select')).toBeDisabled()
    await expect(wallet.getByTestId('account-kind-note')).toHaveText(
      'Smart accounts work on the Anvil dev chain only, where their factory is deployed.',
    )
  } finally {
    // A config request still in flight as the page closes must not fail the test.
    await wallet.unrouteAll({ behavior: 'ignoreErrors' })
    await wallet.context().close()
  }
})
