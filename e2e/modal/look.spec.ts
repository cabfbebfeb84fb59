import { devices, expect, type Page, test } from '@playwright/test'
import { ICONS, startServer, URI } from './support/server.js'

// What a person sees of the modal (issue 13): its title, wallet icons, one card height across tabs, a bottom sheet
// on phones, every control reachable at 200 % zoom, and the app's theme and language rather than the system's.

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

const { defaultBrowserType: _iphone, ...iPhone } = devices['iPhone 13']

/** Opens the modal from the plain page; `query` adds page parameters (`lang`, `scheme`, `options` as JSON). */
async function openModal(page: Page, query: Record<string, string> = {}) {
  server.state.registryFailing = false
  const search = new URLSearchParams({ uri: URI, ...query })
  await page.goto(`${server.url}/plain?${search}`)
  await page.locator('#opener').click()
  await expect(page.getByRole('dialog')).toBeVisible()
  // Measure the card where it comes to rest, after its fade and slide.
  await page.evaluate(() =>
    Promise.all(
      (document.getElementById('walletconnect-wrapper')?.shadowRoot?.getAnimations() ?? []).map(
        (a) => a.finished,
      ),
    ),
  )
}

const card = (page: Page) => page.getByRole('dialog')
const top = async (page: Page, selector: 'tablist' | 'dialog') =>
  (await page.getByRole(selector).boundingBox())?.y
const background = (page: Page) => card(page).evaluate((element) => getComputedStyle(element).backgroundColor)

test.describe('title', () => {
  test('the dialog says what it does, not the protocol name', async ({ page }) => {
    await openModal(page)
    await expect(page.getByRole('dialog', { name: 'Connect a wallet' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'WalletConnect' })).toHaveCount(0)
  })

  test('the app can give its own words', async ({ page }) => {
    await openModal(page, { options: JSON.stringify({ title: 'Sign in with your wallet' }) })
    await expect(page.getByRole('dialog', { name: 'Sign in with your wallet' })).toBeVisible()
  })
})

test.describe('wallet icons (iPhone 13)', () => {
  test.use(iPhone)

  test('the registry image when it gives one, else a monogram in the brand colour; no other image is loaded', async ({
    page,
  }) => {
    const images: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'image') images.push(request.url())
    })
    server.state.iconRequests.length = 0
    await openModal(page, { options: JSON.stringify({ registryUrl: '/registry?icons=1' }) })
    const trust = page.getByRole('link', { name: 'Trust Wallet', exact: true })
    const image = trust.locator('img')
    await expect(image).toHaveAttribute('src', `${server.url}${ICONS['Trust Wallet']}`)
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true)
    // MetaMask's image fails to load: its tile falls back to the monogram.
    const metaMask = page.getByRole('link', { name: 'MetaMask', exact: true }).locator('.icon')
    await expect(metaMask).toHaveText('MM')
    await expect(metaMask.locator('img')).toHaveCount(0)
    // Rainbow has no image: initials on its registry colour (#001e59), not a grey letter.
    const rainbow = page.getByRole('link', { name: 'Rainbow', exact: true }).locator('.icon')
    await expect(rainbow).toHaveText('R')
    await expect(rainbow).toHaveCSS('background-color', 'rgb(0, 30, 89)')
    await expect(rainbow).toHaveCSS('color', 'rgb(255, 255, 255)')
    await page.screenshot({ path: 'e2e/screenshots/modal-icons.png', animations: 'disabled' })
    expect(images.every((url) => url.startsWith(`${server.url}/icons/`))).toBe(true)
    expect(server.state.iconRequests.sort()).toEqual([ICONS.MetaMask, ICONS['Trust Wallet']].sort())
  })
})

test.describe('one card height across tabs', () => {
  test('desktop: the tab bar stays under the pointer', async ({ page }) => {
    await openModal(page)
    const qr = { tabs: await top(page, 'tablist'), card: await top(page, 'dialog') }
    await page.getByRole('tab', { name: 'Desktop' }).click()
    await expect(page.locator('a.wallet')).toHaveCount(6)
    expect({ tabs: await top(page, 'tablist'), card: await top(page, 'dialog') }).toEqual(qr)
  })

  test.describe('iPhone 13', () => {
    test.use(iPhone)

    test('mobile: the tab bar stays under the finger', async ({ page }) => {
      await openModal(page)
      await expect(page.locator('a.wallet')).toHaveCount(12)
      const list = await top(page, 'tablist')
      await page.getByRole('tab', { name: 'QR Code' }).click()
      await expect(page.locator('svg.walletconnect-qrcode__image')).toBeVisible()
      expect(await top(page, 'tablist')).toBe(list)
    })
  })
})

test.describe('bottom sheet on phones (iPhone 13)', () => {
  test.use(iPhone)

  test('the card sits on the bottom edge, full width, and is still a modal dialog', async ({ page }) => {
    await openModal(page)
    const viewport = page.viewportSize()
    const box = await card(page).boundingBox()
    expect(box).not.toBeNull()
    expect(box?.x).toBe(0)
    expect(box?.width).toBe(viewport?.width)
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBe(viewport?.height)
    await expect(card(page)).toHaveAttribute('aria-modal', 'true')
    await page.screenshot({ path: 'e2e/screenshots/modal-ios-sheet.png', animations: 'disabled' })
    const inside = () => page.evaluate(() => document.activeElement?.id === 'walletconnect-wrapper')
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab')
      expect(await inside()).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
    await expect(page.locator('#opener')).toBeFocused()
  })

  test('desktop keeps a centred card', async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    await openModal(page)
    const box = await card(page).boundingBox()
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThan(720)
    expect(box?.x).toBe((1280 - (box?.width ?? 0)) / 2)
    await page.close()
  })
})

test.describe('200 % zoom (a 1280×800 window seen as 640×400)', () => {
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 })

  test('Copy to clipboard scrolls into view inside the dialog, with the close button and tabs still in view', async ({
    page,
  }) => {
    await openModal(page)
    const copy = page.getByRole('button', { name: 'Copy to clipboard' })
    await copy.scrollIntoViewIfNeeded()
    await expect(copy).toBeInViewport()
    await expect(page.locator('#walletconnect-qrcode-close')).toBeInViewport()
    await expect(page.getByRole('tab', { name: 'Desktop' })).toBeInViewport()
    const box = await card(page).boundingBox()
    expect((box?.y ?? -1) >= 0 && (box?.y ?? 0) + (box?.height ?? 0) <= 400).toBe(true)
    await copy.click()
    await expect(page.getByText('Copied to clipboard!')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(URI)
    await page.screenshot({ path: 'e2e/screenshots/modal-zoom-200.png', animations: 'disabled' })
  })
})

test.describe("the app's theme and language, not the system's (Chromium in dark mode and French)", () => {
  test.use({ colorScheme: 'dark', locale: 'fr-FR' })

  test("the page's <html lang> decides the language", async ({ page }) => {
    await openModal(page, { lang: 'de' })
    await expect(page.getByRole('dialog', { name: 'Wallet verbinden' })).toBeVisible()
    await expect(page.getByRole('tab', { name: 'QR-Code' })).toBeVisible()
  })

  test('a page that declares only a light colour scheme gets a light modal', async ({ page }) => {
    await openModal(page, { scheme: 'light' })
    expect(await background(page)).toBe('rgb(255, 255, 255)')
  })

  test('a page that declares light and dark gets the system scheme (dark here)', async ({ page }) => {
    await openModal(page, { scheme: 'light dark' })
    expect(await background(page)).toBe('rgb(29, 31, 36)')
    await page.screenshot({ path: 'e2e/screenshots/modal-dark.png', animations: 'disabled' })
  })

  test('the options an app passes win', async ({ page }) => {
    await openModal(page, { lang: 'de', options: JSON.stringify({ theme: 'light', language: 'es' }) })
    await expect(page.getByRole('dialog', { name: 'Conectar una billetera' })).toBeVisible()
    expect(await background(page)).toBe('rgb(255, 255, 255)')
  })
})
