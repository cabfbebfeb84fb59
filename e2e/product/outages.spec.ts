import { expect, test, type WebSocketRoute } from '@playwright/test'
import { ACCOUNT_0 } from './support/accounts.js'
import { chooseProtocol, copyPairingUri, modal, readBlock, screenshot } from './support/dapp.js'
import { withProduct } from './support/product.js'
import { startV1Wallet } from './support/v1Wallet.js'

const product = withProduct()

test('outages: an unreachable bridge and RPC node each get a plain message, and the app recovers', async ({
  page,
}) => {
  // The page's bridge sockets pass through this route, so the test can cut them as a network failure would.
  let bridgeDown = false
  const sockets: WebSocketRoute[] = []
  await page.routeWebSocket(/.*/, (ws) => {
    if (bridgeDown) return void ws.close()
    ws.connectToServer()
    sockets.push(ws)
  })
  await page.goto(product.origin)
  const uri = await copyPairingUri(page)
  const wallet = startV1Wallet({ uri, rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0)

    bridgeDown = true
    for (const ws of sockets.splice(0)) await ws.close()
    await expect(page.getByTestId('bridge-warning')).toHaveText(/The bridge is unreachable\. Retrying…/, {
      timeout: 10_000,
    })
    await expect(page.getByTestId('bridge-state')).toHaveAttribute('data-state', 'connecting')
    await screenshot(page, 'bridge-unreachable', { publish: true })
    bridgeDown = false
    await expect(page.getByTestId('bridge-warning')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('bridge-state')).toHaveAttribute('data-state', 'open')

    await page.route('**/rpc', (route) => route.abort('connectionrefused'))
    await expect(page.getByTestId('rpc-warning')).toHaveText('The RPC node is unreachable. Retrying…', {
      timeout: 10_000,
    })
    await screenshot(page, 'rpc-unreachable', { publish: true })
    const before = await readBlock(page)
    await page.unroute('**/rpc')
    await expect(page.getByTestId('rpc-warning')).toHaveCount(0, { timeout: 20_000 })
    await expect.poll(() => readBlock(page), { timeout: 10_000 }).toBeGreaterThan(before)

    // The session survived both: the wallet still answers.
    await page.getByTestId('sign-message-button').click()
    await expect(page.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true')
  } finally {
    wallet.close()
  }
})

test('outages: connecting while the bridge is unreachable, the modal says so and marks its QR code not ready; it pairs once the bridge is back', async ({
  page,
}) => {
  let bridgeDown = true
  let refused = 0
  await page.routeWebSocket(/.*/, (ws) => {
    if (bridgeDown) {
      refused++
      return void ws.close()
    }
    ws.connectToServer()
  })
  await page.goto(product.origin)
  // The bridge's outage: a v1 pairing (v2's relay has its own socket).
  await chooseProtocol(page, 1)
  await page.getByTestId('connect-button').click()
  const dialog = modal(page)
  await expect(dialog).toBeVisible()
  const message = "Can't reach the bridge — retrying…"
  const status = dialog.locator('#bridge-status')
  const qr = dialog.getByRole('img', { name: 'QR Code' })
  await expect(status).toHaveText(message, { timeout: 10_000 })
  await expect(status).toHaveAttribute('role', 'status')
  await expect(qr).toHaveAttribute('aria-busy', 'true')
  await expect(qr).toHaveAccessibleDescription(message)
  // Dimmed: a person can see that this code is not ready to scan.
  expect(Number(await qr.evaluate((svg) => getComputedStyle(svg).opacity))).toBeLessThan(0.5)
  // The client retries with backoff meanwhile: a second refused attempt while the modal stays up.
  await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThan(1)
  await screenshot(page, 'bridge-unreachable-modal')

  bridgeDown = false
  await expect(status).toBeEmpty({ timeout: 20_000 })
  await expect(qr).not.toHaveAttribute('aria-busy', 'true')
  await expect(qr).toHaveCSS('opacity', '1')
  await page.getByRole('button', { name: 'Copy to clipboard' }).click()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(/^wc:[0-9a-f-]+@1\?bridge=.+&key=[0-9a-f]{64}$/)
  const wallet = startV1Wallet({ uri, rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await expect(dialog).toHaveCount(0)
  } finally {
    wallet.close()
  }
})

test('outages: a node restarted from block 0 is said so and followed, not a frozen block number', async ({
  page,
}) => {
  test.setTimeout(90_000)
  // A restarted node, played by the route: every block number it reports drops by `offset` (its chain restarted),
  // and stays below the old head (`ceiling`) for the test's time, as a long chain's restart would.
  let offset = 0
  let ceiling = 0
  const lower = (hex: string) => `0x${Math.max(0, Math.min(Number(hex) - offset, ceiling)).toString(16)}`
  await page.route('**/rpc', async (route) => {
    if (offset === 0) return route.continue()
    const response = await route.fetch()
    const body = (await response.json()) as { result?: unknown }
    const { result } = body
    if (typeof result === 'string') body.result = lower(result)
    else if (result && typeof result === 'object' && 'number' in result)
      body.result = { ...result, number: lower(String(result.number)) }
    await route.fulfill({ response, json: body })
  })
  await page.goto(product.origin)
  const uri = await copyPairingUri(page)
  const wallet = startV1Wallet({ uri, rpcUrl: product.rpcUrl, chainId: 31337 })
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0)
    await expect.poll(() => readBlock(page), { timeout: 15_000 }).toBeGreaterThan(3)
    const before = await readBlock(page)
    ceiling = before - 1
    offset = before - 2
    const rewind = page.getByTestId('rpc-rewind')
    await expect(rewind).toHaveText(
      new RegExp(
        `^The RPC node went back from block #${before} to #\\d+: it was restarted or its chain was reset\\.`,
      ),
      { timeout: 30_000 },
    )
    // Followed: the panel shows the node's new, lower head rather than the frozen old one.
    await expect.poll(() => readBlock(page), { timeout: 10_000 }).toBeLessThan(before)
    await screenshot(page, 'rpc-rewind')
    // The node passes its old head again (here: the route stops lowering): the warning goes.
    offset = 0
    await expect(rewind).toHaveCount(0, { timeout: 15_000 })
    await expect.poll(() => readBlock(page), { timeout: 10_000 }).toBeGreaterThan(before)
  } finally {
    wallet.close()
  }
})
