import { copyFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, type Page } from '@playwright/test'
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** The QR modal (inside its open shadow root; Playwright's locators pierce it). */
export const modal = (page: Page) => page.getByRole('dialog', { name: 'Connect a wallet' })

/**
 * Picks the WalletConnect generation on the connect screen (remembered by the page's storage). The web app pairs over
 * v2 by default; the reference wallet these journeys drive speaks v1, so they pick v1 first.
 */
export async function chooseProtocol(page: Page, protocol: 1 | 2): Promise<void> {
  await page.getByTestId(`protocol-v${protocol}`).check()
}

/** What a pairing URI of each WalletConnect generation looks like. */
const PAIRING_URI = {
  1: /^wc:[0-9a-f-]+@1\?bridge=.+&key=[0-9a-f]{64}$/,
  2: /^wc:[0-9a-f]{64}@2\?expiryTimestamp=\d+&relay-protocol=irn&symKey=[0-9a-f]{64}$/,
}

/**
 * Opens the modal from the web app's Connect wallet button (over v1 unless told), presses its copy-link action and
 * returns what landed on the clipboard: the pairing URI a person would paste into a wallet.
 */
export async function copyPairingUri(page: Page, protocol: 1 | 2 = 1): Promise<string> {
  await chooseProtocol(page, protocol)
  await page.getByTestId('connect-button').click()
  await expect(modal(page)).toBeVisible()
  await page.getByRole('button', { name: 'Copy to clipboard' }).click()
  await expect(page.getByText('Copied to clipboard!')).toBeVisible()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(PAIRING_URI[protocol])
  return uri
}

/** The account panel's balance in wei (from its `data-wei`), once loaded. */
export async function readBalance(page: Page, testId = 'account-balance'): Promise<bigint> {
  const element = page.getByTestId(testId)
  await expect(element).toHaveAttribute('data-wei', /^\d+$/)
  return BigInt((await element.getAttribute('data-wei')) ?? '0')
}

/** The latest block number the account panel shows. */
export async function readBlock(page: Page): Promise<number> {
  const text = (await page.getByTestId('block-number').textContent()) ?? ''
  const match = /#(\d+)/.exec(text)
  return match?.[1] ? Number(match[1]) : -1
}

/**
 * Saves a screenshot of the current screen under `e2e/screenshots/product-<name>.png` (git-ignored); `publish`
 * also copies it to `docs/screenshots/<name>.png`, the ones the README shows.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { publish?: boolean } = {},
): Promise<void> {
  const path = `${root}e2e/screenshots/product-${name}.png`
  await page.screenshot({ path, fullPage: true, animations: 'disabled' })
  if (options.publish) {
    mkdirSync(`${root}docs/screenshots`, { recursive: true })
    copyFileSync(path, `${root}docs/screenshots/${name}.png`)
  }
}

// jsqr is CommonJS with an `exports.default`; which of the two a default import yields depends on the loader.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default

/** Screenshots the modal's QR code as the person sees it and decodes it, as a phone's camera would. */
export async function scanQr(page: Page): Promise<string | undefined> {
  const png = PNG.sync.read(await page.locator('svg.walletconnect-qrcode__image').screenshot())
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}
