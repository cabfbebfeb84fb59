import type { Browser, BrowserContext, Page } from '@playwright/test'
import { type Product, startProduct } from './product.js'

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
 * devices. Call it in a `beforeAll` that allows `PRODUCT_HOOK_TIMEOUT`, and `stop()` in the `afterAll`.
 */
export async function startTwoDevices(browser: Browser): Promise<TwoDevices> {
  const product = await startProduct()
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
