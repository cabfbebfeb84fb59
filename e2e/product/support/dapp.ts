import { copyFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, type Locator, type Page } from '@playwright/test'
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** The QR modal (inside its open shadow root; Playwright's locators pierce it). */
export const modal = (page: Page) => page.getByRole('dialog', { name: 'Connect a wallet' })

/** A WalletConnect generation: 1 over the bridge, 2 over the relay. */
export type Protocol = 1 | 2

/**
 * Picks the WalletConnect generation on the connect screen (remembered by the page's storage). The web app pairs over
 * v2 by default; journeys that drive v1 pick it first.
 */
export async function chooseProtocol(page: Page, protocol: Protocol): Promise<void> {
  await page.getByTestId(`protocol-v${protocol}`).check()
}

// What each generation's pairing link looks like (reference §4.1; relay-v2.md for v2's).
const PAIRING_URI: Record<Protocol, RegExp> = {
  1: /^wc:[0-9a-f-]+@1\?bridge=.+&key=[0-9a-f]{64}$/,
  2: /^wc:[0-9a-f]{64}@2\?.*\bsymKey=[0-9a-f]{64}\b/,
}

/**
 * Opens the modal from the web app's Connect wallet button (over v1 unless told), presses its copy-link action and
 * returns what landed on the clipboard: the pairing URI a person would paste into a wallet.
 */
export async function copyPairingUri(page: Page, protocol: Protocol = 1): Promise<string> {
  await chooseProtocol(page, protocol)
  await page.getByTestId('connect-button').click()
  return copyFromModal(page, protocol)
}

/** Presses the copy-link action of the Pairlink modal open on `page` and returns the pairing URI it copied. */
export async function copyFromModal(page: Page, protocol: Protocol): Promise<string> {
  await expect(modal(page)).toBeVisible()
  await page.getByRole('button', { name: 'Copy to clipboard' }).click()
  await expect(page.getByText('Copied to clipboard!')).toBeVisible()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(PAIRING_URI[protocol])
  return uri
}

/**
 * The session the web app keeps for a reload, or `null`: v1's under its storage key (reference §4.7), v2's the
 * sessions of the client's stored state (its pairing and keys may outlive them).
 */
export async function readStoredSession(page: Page, protocol: Protocol): Promise<string | null> {
  return page.evaluate((protocol) => {
    if (protocol === 1) return localStorage.getItem('walletconnect')
    const state = JSON.parse(localStorage.getItem('pairlink-v2') ?? '{}') as { sessions?: object }
    return Object.keys(state.sessions ?? {}).length > 0 ? JSON.stringify(state.sessions) : null
  }, protocol)
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
 * also copies it to `docs/screenshots/<name>.png`, the ones the README shows. A v2 run's (`protocol: 2`) is saved
 * as `<name>-v2` and never published: the README shows the v1 run's. The whole page unless `fullPage: false` (a
 * dialog over the page: what the window shows).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { publish?: boolean; protocol?: Protocol; fullPage?: boolean } = {},
): Promise<void> {
  const v2 = options.protocol === 2
  const path = `${root}e2e/screenshots/product-${name}${v2 ? '-v2' : ''}.png`
  await page.screenshot({ path, fullPage: options.fullPage ?? true, animations: 'disabled' })
  if (options.publish && !v2) {
    mkdirSync(`${root}docs/screenshots`, { recursive: true })
    copyFileSync(path, `${root}docs/screenshots/${name}.png`)
  }
}

// jsqr is CommonJS with an `exports.default`; which of the two a default import yields depends on the loader.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default

/**
 * Screenshots the modal's QR code as the person sees it and decodes it, as a phone's camera would: again until it
 * reads (a camera keeps looking while the dialog is still drawing in), `undefined` if it never does within 10 s.
 */
export async function scanQr(page: Page): Promise<string | undefined> {
  const element = page.locator('svg.walletconnect-qrcode__image')
  let data: string | undefined
  await expect
    .poll(
      async () => {
        data = await decodeQr(element)
        return data !== undefined
      },
      { timeout: 10_000 },
    )
    .toBe(true)
    .catch(() => {})
  return data
}

/** Decodes the QR code shown inside `element` (its screenshot); `undefined` if none can be read. */
async function decodeQr(element: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await element.screenshot())
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}
