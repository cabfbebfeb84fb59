import type { Context, Hono } from 'hono'
import type { AppEnv } from '../api/http.js'
import type { WalletList } from './createWalletList.js'
import { LOGOS_PATH } from './logos.js'

/** How long browsers and proxies may keep the list before revalidating it (the ETag makes that a 304). */
const LIST_CACHE_CONTROL = 'public, max-age=300'
/** Logos change with a new name (an explorer image id) or a new release: a week is safe. */
const LOGO_CACHE_CONTROL = 'public, max-age=604800'

/** The encoding to send: Brotli, then gzip, then none, as the request's `Accept-Encoding` allows (q=0 refuses). */
function pickEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>()
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim())
    const q = params.find((p) => p.startsWith('q='))
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name)
  }
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip'
  return undefined
}

/** Whether an `If-None-Match` header names `etag` (or is `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}

/**
 * Serves the wallet list at `/registry/wallets.json` (compressed once per version, strong ETag and 304, CORS `*`) and
 * its logos at `/registry/logos/<name>`. A request may start the daily explorer read; it never waits for it.
 */
export function serveWalletList(
  app: Hono<AppEnv>,
  list: WalletList,
  originOf: (c: Context<AppEnv>) => string,
) {
  app.get('/registry/wallets.json', (c) => {
    void list.refreshIfDue().catch(() => {})
    const document = list.document(originOf(c))
    const headers: Record<string, string> = {
      'access-control-allow-origin': '*',
      'cache-control': LIST_CACHE_CONTROL,
      etag: document.etag,
      vary: 'Accept-Encoding',
    }
    if (matches(c.req.header('if-none-match'), document.etag)) return c.body(null, 304, headers)
    const encoding = pickEncoding(c.req.header('accept-encoding'))
    const body = encoding ? document[encoding] : document.json
    return c.body(new Uint8Array(body), 200, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    })
  })
  app.get(`${LOGOS_PATH}/:name`, async (c) => {
    const logo = await list.logo(c.req.param('name'))
    if (!logo)
      return c.json({ error: 'No such wallet logo' }, 404, {
        'access-control-allow-origin': '*',
        'cache-control': 'no-store',
      })
    return c.body(new Uint8Array(logo.body), 200, {
      'content-type': logo.type,
      'access-control-allow-origin': '*',
      'cache-control': LOGO_CACHE_CONTROL,
      // An SVG opened on its own must not run script in this site's origin.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    })
  })
}
