// Dev script: drives the built wallet page in Debian's Chromium against a running server, with a dapp made with our
// client, and saves screenshots under e2e/screenshots/. Usage: tsx test/screenshots.ts http://127.0.0.1:PORT
import { createClient, dappActions } from '@pairlink/client'
import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { chromium } from 'playwright-core'
import WebSocket from 'ws'
import { chromiumLaunch } from '../../../e2e/playwright.config.js'

const origin = process.argv[2] ?? 'http://127.0.0.1:3000'
const out = new URL('../../../e2e/screenshots/', import.meta.url).pathname
const browser = await chromium.launch(chromiumLaunch)
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 })
  page.on('console', (message) => message.type() === 'error' && console.log('page error:', message.text()))
  const shot = async (name: string) => {
    // The settled screen: fonts and images loaded; `animations: 'disabled'` finishes any transition at once.
    await page.waitForFunction(
      () => document.fonts.status === 'loaded' && [...document.images].every((image) => image.complete),
    )
    await page.screenshot({ path: `${out}wallet-${name}.png`, fullPage: true, animations: 'disabled' })
    console.log('saved', name)
  }
  await page.goto(`${origin}/wallet/`)
  await page.getByTestId('home').waitFor()
  await shot('home')

  let showUri!: (uri: string) => void
  const shown = new Promise<string>((resolve) => (showUri = resolve))
  const dapp = createClient({
    bridge: origin,
    storage: false,
    WebSocket,
    clientMeta: {
      name: 'Pairlink Demo',
      description: 'The Pairlink web app',
      url: origin,
      icons: [`${origin}/wallet/icon.svg`],
    },
    modal: { open: (uri) => showUri(uri), close: () => {} },
  }).extend(dappActions)
  const connecting = dapp.connect({ chainId: 31337 })
  const uri = await shown
  await page.goto(`${origin}/wallet/wc?uri=${encodeURIComponent(uri)}`)
  await page.getByTestId('session-request').waitFor()
  console.log('address bar after deep link:', page.url())
  await shot('session-request')
  await page.getByTestId('approve-session').click()
  const { accounts } = await connecting
  const address = accounts[0] ?? ''
  await page.getByTestId('session-card').waitFor()
  await shot('connected')

  const signing = dapp.signPersonalMessage(['Sign in to Pairlink Demo\n\nNonce: 42', address])
  await page.getByTestId('call-request').waitFor()
  await shot('request-message')
  await page.getByTestId('approve-request').click()
  console.log('signature', await signing)

  const typed = dapp.signTypedData([address, JSON.stringify(MAIL_TYPED_DATA)])
  await page.getByTestId('typed-data-field').first().waitFor()
  await shot('request-typed-data')
  await page.getByTestId('approve-request').click()
  await typed

  const sending = dapp.sendTransaction({
    from: address,
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: 10n ** 16n,
  })
  await page.getByTestId('tx-value').waitFor()
  await shot('request-transaction')
  await page.getByTestId('approve-request').click()
  console.log('tx', await sending)
  await page.getByTestId('tx-hash').waitFor()
  await shot('request-sent')
  await page.getByTestId('request-done').click()

  await page.reload()
  await page.getByTestId('session-card').waitFor()
  await shot('restored')

  await dapp.killSession()
  await page.getByText('disconnected the session').waitFor()
  await shot('disconnected-by-dapp')

  await page.getByTestId('uri-input').fill('WC:nope@1?bridge=x&key=y')
  await page.getByTestId('pair-button').click()
  await page.getByText('URI format is invalid').waitFor()
  await shot('invalid-uri')
  dapp.close()
} finally {
  await browser.close()
}
