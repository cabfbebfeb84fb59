import { BLOCK_POLLING_INTERVAL_MS, HIDDEN_POLLING_FACTOR } from '@pairlink/provider'
import { expect, type Page, test } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { copyPairingUri, readBlock } from './support/dapp.js'
import { withProduct } from './support/product.js'
import { startV1Wallet } from './support/v1Wallet.js'

const product = withProduct()

/** The page's JSON-RPC calls to `/rpc`, by kind, counted from the moment `reset` is called. */
async function countRpc(page: Page) {
  let counts: Record<string, number> = {}
  await page.route('**/rpc', async (route) => {
    type Call = { method: string; params?: unknown[] }
    const body = route.request().postDataJSON() as Call | Call[]
    for (const call of Array.isArray(body) ? body : [body]) {
      const params = call.params
      const kind =
        call.method === 'eth_getBlockByNumber'
          ? params?.[0] === 'latest'
            ? 'latest'
            : 'backfill'
          : call.method
      counts[kind] = (counts[kind] ?? 0) + 1
    }
    await route.continue()
  })
  return {
    reset: () => {
      counts = {}
    },
    read: () => ({ ...counts }),
  }
}

async function nodeHead(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })
  return Number(((await response.json()) as { result: string }).result)
}

const WINDOW_MS = 12_000

test('load: the signed-out dapp logs no console error, on load nor when a wallet connects', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(product.origin)
  await expect(page.getByTestId('connect-button')).toBeVisible()
  // The connected view asks the server who is signed in: that answer is what used to log an error.
  const me = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/me')
  const wallet = startV1Wallet({ uri: await copyPairingUri(page), rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    expect((await me).status()).toBe(200)
    await expect(page.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-out')
    // A marker logged after the answer was handled proves the listener hears the page's console.
    await page.evaluate(() => console.error('marker'))
    await expect.poll(() => errors.includes('marker')).toBe(true)
    expect(errors.filter((text) => text !== 'marker')).toEqual([])
  } finally {
    wallet.close()
  }
})

test('quiet: an idle connected tab polls once per interval, reads the balance once per poll, and slows when hidden', async ({
  page,
}) => {
  test.setTimeout(90_000)
  const rpc = await countRpc(page)
  await page.goto(product.origin)
  const uri = await copyPairingUri(page)
  const wallet = startV1Wallet({ uri, rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    // Polling runs: the count below is of a live tab, not of one that stopped asking.
    const first = await readBlock(page)
    await expect
      .poll(() => readBlock(page), { timeout: 3 * BLOCK_POLLING_INTERVAL_MS })
      .toBeGreaterThan(first)

    rpc.reset()
    const startHead = await nodeHead(product.rpcUrl)
    await page.waitForTimeout(WINDOW_MS)
    const visible = rpc.read()
    const mined = (await nodeHead(product.rpcUrl)) - startHead
    const polls = Math.ceil(WINDOW_MS / BLOCK_POLLING_INTERVAL_MS) + 1
    console.log(JSON.stringify({ visible, mined, polls }))
    expect(visible.latest ?? 0).toBeGreaterThan(0)
    expect(visible.latest ?? 0).toBeLessThanOrEqual(polls)
    // One balance read per poll at most, however many blocks the poll caught up on.
    expect(visible.eth_getBalance ?? 0).toBeLessThanOrEqual(polls)
    // Each mined block is fetched once at most (the provider fills the gaps between two polls).
    expect(visible.backfill ?? 0).toBeLessThanOrEqual(mined + 1)
    const other = Object.entries(visible).filter(
      ([kind]) => !['latest', 'backfill', 'eth_getBalance'].includes(kind),
    )
    expect(other).toEqual([])

    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    // The poll already waiting keeps its visible-tab delay; count from the next one on.
    await page.waitForTimeout(BLOCK_POLLING_INTERVAL_MS)
    rpc.reset()
    await page.waitForTimeout(WINDOW_MS)
    const hidden = rpc.read()
    console.log(JSON.stringify({ hidden }))
    expect(hidden.latest ?? 0).toBeLessThanOrEqual(
      Math.ceil(WINDOW_MS / (BLOCK_POLLING_INTERVAL_MS * HIDDEN_POLLING_FACTOR)) + 1,
    )
    // One balance read per poll; a poll whose block read came just before the reset has its balance read after it.
    expect(hidden.eth_getBalance ?? 0).toBeLessThanOrEqual((hidden.latest ?? 0) + 1)
  } finally {
    wallet.close()
  }
})
