import { devices, expect, type Locator, type Page, test } from '@playwright/test'
import { decodeQr } from './support/qr.js'
import { startServer, URI } from './support/server.js'

// Where the modal's parts land on a phone, on a desktop and at 200 % / 400 % zoom (issue 28), measured rather than
// looked at: the page numbers clear of the countdown, the QR code whole in the viewport as the modal opens, no
// horizontal scrolling at 320 CSS px.

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

// Chromium plays each phone (user agent, viewport, touch); `defaultBrowserType` would ask for WebKit.
const phone = (
  name: 'iPhone 13' | 'iPhone SE' | 'iPhone 13 landscape' | 'iPhone SE landscape' | 'Pixel 7',
) => {
  const { defaultBrowserType: _, ...profile } = devices[name]
  return profile
}

/** A v2 pairing URI as the SDK writes it, five minutes from now: the modal shows its countdown line. */
const v2Uri = () =>
  `wc:${'7'.repeat(64)}@2?expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}&relay-protocol=irn&symKey=${'5'.repeat(64)}`

/** The smallest QR code the modal draws (createStyles): a 65-module v2 code keeps ~2 CSS px a module. */
const QR_FLOOR = 128

async function openModal(page: Page, uri: string) {
  server.state.registryFailing = false
  await page.goto(`${server.url}/plain?uri=${encodeURIComponent(uri)}`)
  await page.locator('#opener').click()
  await expect(page.getByRole('dialog')).toBeVisible()
  // Measure where the card comes to rest, after its fade and slide.
  await page.evaluate(() =>
    Promise.all(
      (document.getElementById('walletconnect-wrapper')?.shadowRoot?.getAnimations() ?? []).map(
        (a) => a.finished,
      ),
    ),
  )
}

type Box = { top: number; right: number; bottom: number; left: number }

/**
 * Where `control` is, what clips it (the viewport and every scrolling ancestor inside the modal), what the modal's
 * shadow root finds at its centre, and the countdown line's box when it shows.
 */
const measure = (control: Locator) =>
  control.evaluate((element) => {
    const box = ({ top, right, bottom, left }: DOMRect) => ({ top, right, bottom, left })
    const root = element.getRootNode() as ShadowRoot
    const clips = [{ top: 0, left: 0, right: innerWidth, bottom: innerHeight }]
    for (let node = element.parentElement; node; node = node.parentElement) {
      if (getComputedStyle(node).overflowY !== 'visible') clips.push(box(node.getBoundingClientRect()))
    }
    const own = element.getBoundingClientRect()
    const hit = root.elementFromPoint(own.left + own.width / 2, own.top + own.height / 2)
    const expiry = root.getElementById('expiry')
    return {
      box: box(own),
      clips,
      hitsItself: hit !== null && element.contains(hit),
      countdown: expiry && !expiry.hidden ? box(expiry.getBoundingClientRect()) : undefined,
    }
  })

const inside = (inner: Box, outer: Box) =>
  inner.top >= outer.top &&
  inner.left >= outer.left &&
  inner.bottom <= outer.bottom &&
  inner.right <= outer.right
const overlap = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/** Whole, on top at its centre, clear of the countdown line: a person sees it and can press it without scrolling. */
async function expectFullyShown(control: Locator) {
  const { box, clips, hitsItself, countdown } = await measure(control)
  const name = await control.evaluate((element) => element.textContent ?? element.tagName)
  expect(
    clips.filter((clip) => !inside(box, clip)),
    `"${name}" is cut by the viewport or a scrolling box`,
  ).toEqual([])
  expect(hitsItself, `"${name}" is covered at its centre`).toBe(true)
  expect(countdown && overlap(box, countdown), `"${name}" sits under the countdown`).toBeFalsy()
}

test.describe('the wallet list page numbers clear of the countdown', () => {
  for (const name of ['iPhone 13', 'iPhone SE', 'iPhone 13 landscape', 'iPhone SE landscape'] as const) {
    test.describe(name, () => {
      test.use(phone(name))

      test(`${name}: every page number is whole and pressable, on each page`, async ({ page }) => {
        await openModal(page, v2Uri())
        await expect(page.getByRole('timer')).toHaveText(/^Expires in \d:\d\d$/)
        const pages = page.locator('.pages button')
        await expect(pages).toHaveText(['1', '2', '3', '4', '5'])
        for (const button of await pages.all()) await expectFullyShown(button)
        // The last page is shorter: its numbers do not move under the line either.
        await pages.nth(4).click()
        await expect(pages.nth(4)).toHaveAttribute('aria-current', 'page')
        for (const button of await pages.all()) await expectFullyShown(button)
      })
    })
  }

  test.describe('Pixel 7', () => {
    test.use(phone('Pixel 7'))

    test('Android: the Connect button is whole and pressable above the countdown', async ({ page }) => {
      await openModal(page, v2Uri())
      await expectFullyShown(page.locator('#walletconnect-connect-button-Connect'))
    })
  })

  test('desktop: the Desktop tab links are whole and pressable above the countdown', async ({ page }) => {
    await openModal(page, v2Uri())
    await page.getByRole('tab', { name: 'Desktop' }).click()
    await expect(page.locator('a.wallet')).toHaveCount(6)
    for (const link of await page.locator('a.wallet').all()) await expectFullyShown(link)
  })
})

test.describe('the QR code fits the space it has', () => {
  // 200 %: a 1280×720 window seen as 640×360 CSS px.
  test.describe('200 % zoom', () => {
    test.use({ viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 })

    for (const [label, uri] of [
      ['v2 (with its countdown)', v2Uri()],
      ['v1', URI],
    ] as const) {
      test(`${label}: the whole code, quiet zone included, is in view as the modal opens, and scans`, async ({
        page,
      }) => {
        await openModal(page, uri)
        const qr = page.locator('svg.walletconnect-qrcode__image')
        await expectFullyShown(qr)
        const { box } = await measure(qr)
        expect(box.bottom - box.top).toBeGreaterThanOrEqual(QR_FLOOR)
        expect(await decodeQr(qr)).toBe(uri)
        // The rest is a scroll away, inside the dialog, with the close button still in view.
        const copy = page.getByRole('button', { name: 'Copy to clipboard' })
        await copy.scrollIntoViewIfNeeded()
        await expectFullyShown(copy)
        await expect(page.locator('#walletconnect-qrcode-close')).toBeInViewport({ ratio: 1 })
      })
    }
  })

  test('100 %: the code keeps its full 320 px', async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    await openModal(page, v2Uri())
    const { box } = await measure(page.locator('svg.walletconnect-qrcode__image'))
    expect(box.bottom - box.top).toBe(320)
    await page.close()
  })

  // 400 %: the same window seen as 320×180 CSS px; WCAG 1.4.10 asks for no horizontal scrolling at 320 px.
  test.describe('400 % zoom', () => {
    test.use({ viewport: { width: 320, height: 180 }, deviceScaleFactor: 4 })

    test('nothing scrolls sideways; the whole card scrolls to every control and the code scans', async ({
      page,
    }) => {
      const uri = v2Uri()
      await openModal(page, uri)
      const card = page.getByRole('dialog')
      const widths = await card.evaluate((element) => ({
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        card: [element.scrollWidth, element.clientWidth],
      }))
      expect(widths.page[0]).toBeLessThanOrEqual(widths.page[1] ?? 0)
      expect(widths.card[0]).toBeLessThanOrEqual(widths.card[1] ?? 0)
      const qr = page.locator('svg.walletconnect-qrcode__image')
      await qr.scrollIntoViewIfNeeded()
      await expectFullyShown(qr)
      expect(await decodeQr(qr)).toBe(uri)
      for (const control of [
        page.getByRole('button', { name: 'Copy to clipboard' }),
        page.getByRole('tab', { name: 'Desktop' }),
        page.locator('#walletconnect-qrcode-close'),
      ]) {
        await control.scrollIntoViewIfNeeded()
        await expectFullyShown(control)
      }
      await page.getByRole('tab', { name: 'Desktop' }).click()
      const ledger = page.getByRole('link', { name: 'Ledger Live' })
      await ledger.scrollIntoViewIfNeeded()
      await expectFullyShown(ledger)
    })
  })
})
