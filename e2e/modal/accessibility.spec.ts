import { AxeBuilder } from '@axe-core/playwright'
import { devices, expect, type Page, test } from '@playwright/test'
import { startServer, URI } from './support/server.js'

// axe-core on every screen of the modal, scoped to the modal (the host page's loud test styles are not ours).
// Reduced motion: axe reads colours after the fade-in, not halfway through it.

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})
test.use({ reducedMotion: 'reduce' })

const { defaultBrowserType: _iphone, ...iPhone } = devices['iPhone 13']
const { defaultBrowserType: _pixel, ...pixel } = devices['Pixel 7']

async function openModal(page: Page, query: Record<string, string> = {}) {
  await page.goto(`${server.url}/plain?${new URLSearchParams({ uri: URI, ...query })}`)
  await page.locator('#opener').click()
  await expect(page.getByRole('dialog')).toBeVisible()
}

/** The axe violations inside the modal, as `rule: target` lines so that a failure names them. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include('#walletconnect-wrapper')
    // Experimental in axe, so off by default: a link's accessible name must contain its visible text (WCAG 2.5.3).
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze()
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)}`),
  )
}

test('desktop: QR tab', async ({ page }) => {
  await openModal(page)
  await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
  expect(await violations(page)).toEqual([])
})

test('desktop: wallet list tab', async ({ page }) => {
  await openModal(page)
  await page.getByRole('tab', { name: 'Desktop' }).click()
  await expect(page.locator('a.wallet')).toHaveCount(6)
  expect(await violations(page)).toEqual([])
})

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' })

  for (const tab of ['QR Code', 'Desktop']) {
    test(`desktop: ${tab} tab in the dark theme`, async ({ page }) => {
      await openModal(page, { scheme: 'light dark' })
      await page.getByRole('tab', { name: tab }).click()
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true')
      if (tab === 'Desktop') await expect(page.locator('a.wallet')).toHaveCount(6)
      expect(await violations(page)).toEqual([])
    })
  }
})

test.describe('iPhone 13 (bottom sheet)', () => {
  test.use(iPhone)

  test('mobile wallet list', async ({ page }) => {
    await openModal(page)
    await expect(page.locator('a.wallet')).toHaveCount(12)
    expect(await violations(page)).toEqual([])
  })

  test('search with no result', async ({ page }) => {
    await openModal(page)
    await page.getByRole('searchbox', { name: 'Search' }).fill('no such wallet')
    await expect(page.getByText('No wallets found')).toBeVisible()
    expect(await violations(page)).toEqual([])
  })

  test('QR tab', async ({ page }) => {
    await openModal(page)
    await page.getByRole('tab', { name: 'QR Code' }).click()
    await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
    expect(await violations(page)).toEqual([])
  })

  test("wallet tiles: each link's accessible name is its visible text", async ({ page }) => {
    await openModal(page)
    const tiles = page.locator('a.wallet')
    await expect(tiles).toHaveCount(12)
    for (const tile of await tiles.all()) {
      const visible = (await tile.locator('.name').textContent()) ?? ''
      await expect(tile).toHaveAccessibleName(visible.replace(/\s+/g, ' ').trim())
    }
  })
})

test.describe('Pixel 7', () => {
  test.use(pixel)

  test('Android Connect button', async ({ page }) => {
    await openModal(page)
    await expect(page.getByText('Connect to Mobile Wallet')).toBeVisible()
    expect(await violations(page)).toEqual([])
  })
})
