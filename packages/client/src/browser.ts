import type { ClientMeta } from '@pairlink/protocol'

type Window = {
  location?: { host: string; origin: string; href: string }
  navigator?: { userAgent?: string }
  document?: Document
}

const page = globalThis as Window

/** The page's `location.host` in a browser (for the socket URL's `host`), `undefined` elsewhere. */
export function getBrowserHost(): string | undefined {
  return page.document && page.location ? page.location.host : undefined
}

/** Whether the user agent is a phone or tablet, as v1's `isMobile` decides (reference §6.2). */
export function isMobile(userAgent = page.navigator?.userAgent ?? ''): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(userAgent)
}

/**
 * The default redirect on signing (reference §6.6): on mobile browsers, a native deep link (`rainbow://wc`) is
 * followed as v1 does, so the wallet app comes to the foreground. A web link (`http:`/`https:`, a web wallet or a
 * universal link) is not: following it would replace the dapp's own tab, and the wallet the person tapped already has
 * a tab of its own. Off in Node and on desktops.
 */
export function redirectToWallet(href: string): void {
  if (page.document && page.location && isMobile() && isNativeDeepLink(href)) page.location.href = href
}

/** Schemes a page must never be sent to: they are web pages, or run or show content in the dapp's own tab. */
const NOT_NATIVE = new Set([
  'http:',
  'https:',
  'javascript:',
  'data:',
  'blob:',
  'file:',
  'about:',
  'vbscript:',
])

/** Whether `href` opens an app rather than a page: an absolute URL whose scheme is not a web one. */
function isNativeDeepLink(href: string): boolean {
  try {
    return !NOT_NATIVE.has(new URL(href).protocol)
  } catch {
    return false
  }
}

/**
 * The page's metadata as v1 scrapes it (reference §4.3), for a dapp that passes no `clientMeta`; `null` outside
 * browsers.
 */
export function getWindowMeta(): ClientMeta | null {
  const document = page.document
  if (!document || !page.location) return null
  const meta = (names: string[]) => {
    for (const name of names) {
      const content = document
        .querySelector(`meta[itemprop="${name}"],meta[property="${name}"],meta[name="${name}"]`)
        ?.getAttribute('content')
      if (content) return content
    }
    return undefined
  }
  const icons = [...document.querySelectorAll('link[rel*="icon"]')]
    .map((link) => link.getAttribute('href'))
    .filter((href): href is string => !!href)
    .map((href) => new URL(href, page.location?.href).href)
  return {
    description: meta(['description', 'og:description', 'twitter:description', 'keywords']) ?? '',
    url: page.location.origin,
    icons,
    name: meta(['name', 'og:site_name', 'og:title', 'twitter:title']) ?? document.title,
  }
}
