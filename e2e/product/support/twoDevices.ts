import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { copyPairingUri } from './dapp.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './product.js'
import { approveSession, pasteUri } from './walletPage.js'

/** The product, and the web app and the reference wallet as pages of two browser contexts. */
export type TwoDevices = {
  product: Product
  contexts: BrowserContext[]
  dapp: Page
  wallet: Page
  /** Closes both contexts, then stops the product by its PID. */
  stop(): Promise<void>
}

/**
 * Starts the product and opens the web app's and the wallet's pages in two contexts: their own storage, as on two
 * devices; `env` is the server's (see `startProduct`). Call it in a `beforeAll` that allows `PRODUCT_HOOK_TIMEOUT`, and
 * `stop()` in the `afterAll`.
 */
export async function startTwoDevices(
  browser: Browser,
  env: Record<string, string> = {},
): Promise<TwoDevices> {
  const product = await startProduct(env)
  const options = { permissions: ['clipboard-read', 'clipboard-write'] }
  const contexts = [await browser.newContext(options), await browser.newContext(options)]
  const [dapp, wallet] = [await contexts[0]!.newPage(), await contexts[1]!.newPage()]
  return {
    product,
    contexts,
    dapp,
    wallet,
    async stop() {
      for (const context of contexts) await context.close()
      await product.stop()
    },
  }
}

/**
 * {@link startTwoDevices}, then pairs them as a person does (the modal's copied link pasted into the wallet, the
 * session approved) and waits until the web app shows the connected view.
 */
export async function startPairedDevices(browser: Browser): Promise<TwoDevices> {
  const devices = await startTwoDevices(browser)
  const { product, dapp, wallet } = devices
  await dapp.goto(product.origin)
  await pasteUri(wallet, product.origin, await copyPairingUri(dapp))
  await approveSession(wallet)
  await expect(dapp.getByTestId('sign-message-button')).toBeEnabled({ timeout: 15_000 })
  return devices
}

/**
 * Starts two devices with `start` ({@link startTwoDevices} or {@link startPairedDevices}) before the tests of the file
 * (or `describe`) it is called in, hands them to `use` (where a spec keeps the pages it needs), and stops them after.
 *
 * @example
 * let dapp: Page
 * withTwoDevices(startPairedDevices, (devices) => {
 *   dapp = devices.dapp
 * })
 */
export function withTwoDevices(
  start: (browser: Browser) => Promise<TwoDevices>,
  use: (devices: TwoDevices) => void | Promise<void>,
): void {
  let devices: TwoDevices | undefined
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(PRODUCT_HOOK_TIMEOUT)
    devices = await start(browser)
    await use(devices)
  })
  test.afterAll(async () => {
    await devices?.stop()
  })
}
