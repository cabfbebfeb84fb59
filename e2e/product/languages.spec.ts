import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'

// A German, a Spanish and a Japanese browser (Chromium's `locale`, which sets navigator.languages and <html lang>'s
// source) each get the web app, the QR modal and the wallet page in their language, pair them over v2, and leave
// screenshots of each for the README (docs/screenshots/i18n-<lang>-{web,modal,wallet}.png). The other specs run the
// default en-US browser and assert English: an unsupported or English browser keeps the app as it was.
test.describe.configure({ mode: 'serial' })

const product = withProduct()

/** What each language's browser must read, as a person sees it. */
const LANGUAGES = {
  de: {
    locale: 'de-DE',
    connectTitle: 'Wallet verbinden',
    connectButton: 'Wallet verbinden',
    modalTitle: 'Wallet verbinden',
    scan: 'Scanne den QR-Code mit einer WalletConnect-kompatiblen Wallet',
    copy: 'In die Zwischenablage kopieren',
    copied: 'In die Zwischenablage kopiert!',
    authTitle: 'Verbinden und anmelden',
    approve: 'Bestätigen und anmelden',
    connected: 'Verbunden mit',
    signIn: 'Mit Ethereum anmelden',
    walletConnected: 'Verbunden mit Pairlink',
  },
  es: {
    locale: 'es-ES',
    connectTitle: 'Conecta tu billetera',
    connectButton: 'Conectar billetera',
    modalTitle: 'Conectar una billetera',
    scan: 'Escanea el código QR con una billetera compatible con WalletConnect',
    copy: 'Copiar al portapapeles',
    copied: '¡Copiado al portapapeles!',
    authTitle: 'Conectar e iniciar sesión',
    approve: 'Aprobar e iniciar sesión',
    connected: 'Conectado a',
    signIn: 'Iniciar sesión con Ethereum',
    walletConnected: 'Conectado a Pairlink',
  },
  ja: {
    locale: 'ja-JP',
    connectTitle: 'ウォレットを接続',
    connectButton: 'ウォレットを接続',
    modalTitle: 'ウォレットを接続',
    scan: 'WalletConnect 対応のウォレットで QR コードをスキャンしてください',
    copy: 'クリップボードにコピー',
    copied: 'クリップボードにコピーしました！',
    authTitle: '接続してサインイン',
    approve: '承認してサインイン',
    connected: 'に接続済み',
    signIn: 'Ethereum でサインイン',
    walletConnected: 'Pairlink に接続済み',
  },
} as const

const contexts: BrowserContext[] = []

test.afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close()
})

/** A browser set to `locale` (one per device: the dapp and the wallet keep their own storage), at device scale 1. */
async function device(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({
    locale,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    permissions: ['clipboard-read', 'clipboard-write'],
  })
  contexts.push(context)
  return context.newPage()
}

for (const [language, texts] of Object.entries(LANGUAGES)) {
  test(`behavior: a ${texts.locale} browser gets the web app, the modal and the wallet page in its language`, async ({
    browser,
  }) => {
    const dapp = await device(browser, texts.locale)
    await dapp.goto(product.origin)
    await expect(dapp.locator('html')).toHaveAttribute('lang', language)
    await expect(dapp.getByRole('heading', { level: 1 })).toHaveText(texts.connectTitle)
    await expect(dapp.getByTestId('connect-button')).toHaveText(texts.connectButton)

    // The modal follows the page's <html lang>, its table loaded before it shows: no English first.
    await dapp.getByTestId('connect-button').click()
    const dialog = dapp.getByRole('dialog', { name: texts.modalTitle })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByText(texts.scan)).toBeVisible()
    await expect(dapp.locator('#walletconnect-qrcode-modal')).toHaveAttribute('lang', language)
    await screenshot(dapp, `i18n-${language}-modal`, { publish: true, fullPage: false })
    await dialog.getByRole('button', { name: texts.copy }).click()
    await expect(dialog.getByText(texts.copied)).toBeVisible()
    const uri = await dapp.evaluate(() => navigator.clipboard.readText())
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)

    // The wallet page, on another device in the same language, opened by the modal's deep link.
    const wallet = await device(browser, texts.locale)
    await wallet.goto(`${product.origin}/wallet/wc?uri=${encodeURIComponent(uri)}`)
    await expect(wallet.locator('html')).toHaveAttribute('lang', language)
    await expect(wallet.getByRole('heading', { name: texts.authTitle })).toBeVisible({ timeout: 15_000 })
    await expect(wallet.getByTestId('approve-auth')).toHaveText(texts.approve)
    await screenshot(wallet, `i18n-${language}-wallet`, { publish: true })
    await wallet.getByTestId('approve-auth').click()
    await expect(wallet.getByTestId('session-card')).toContainText(texts.walletConnected)

    // The web app, connected and signed in with that one approval, says so in the browser's language.
    await expect(dapp.getByTestId('account-panel')).toBeVisible({ timeout: 15_000 })
    await expect(dapp.getByRole('heading', { level: 1 })).toContainText(texts.connected)
    await expect(dapp.getByRole('heading', { name: texts.signIn })).toBeVisible()
    await expect(dapp.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
    await screenshot(dapp, `i18n-${language}-web`, { publish: true })
  })
}

test('behavior: a Persian browser gets right-to-left pages, with addresses and links still left to right', async ({
  browser,
}) => {
  const dapp = await device(browser, 'fa-IR')
  await dapp.goto(product.origin)
  await expect(dapp.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(dapp.getByTestId('connect-button')).toHaveText('اتصال کیف پول')
  await dapp.getByTestId('connect-button').click()
  await expect(dapp.locator('#walletconnect-qrcode-modal')).toHaveAttribute('dir', 'rtl')

  const wallet = await device(browser, 'fa-IR')
  await wallet.goto(`${product.origin}/wallet/`)
  await expect(wallet.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(wallet.getByRole('heading', { name: 'اتصال به یک dapp' })).toBeVisible()
  // The account's address is drawn in two halves: the first stays on the left, so it reads as it is written.
  const halves = wallet.getByTestId('account-address').locator('.address-half')
  const [first, second] = [await halves.nth(0).boundingBox(), await halves.nth(1).boundingBox()]
  expect(first && second && (first.y < second.y || first.x < second.x)).toBe(true)
  await screenshot(wallet, 'i18n-fa-wallet')
})
