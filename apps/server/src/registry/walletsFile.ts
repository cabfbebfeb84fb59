import { readFileSync } from 'node:fs'
import type { ListingEntry } from './toListing.js'

/** A bad `WALLETS_FILE`: the message names the variable, the file and what is wrong. */
export class WalletsFileError extends Error {
  override name = 'WalletsFileError'
}

const LINK_FIELDS = ['homepage'] as const
// Logos must not make the browser fetch from another site (the page's CSP allows 'self' and data: only).
const SAFE_IMAGE = /^(\/[^/]|data:image\/(png|webp|jpeg|svg\+xml)[;,]|$)/

/**
 * Reads the operator's extra wallets (`WALLETS_FILE`): a JSON array of listing entries (or `{ listings }` as the
 * registry serves them), each with `id` and `name`, links as strings, `image_url` same-site (`/…`) or `data:`.
 * Throws {@link WalletsFileError} naming `WALLETS_FILE` on the first problem.
 */
export function readWalletsFile(path: string): ListingEntry[] {
  const fail = (why: string): never => {
    throw new WalletsFileError(`WALLETS_FILE (${path}) ${why}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    fail(
      (error as NodeJS.ErrnoException).code
        ? `cannot be read: ${(error as NodeJS.ErrnoException).code}`
        : 'is not valid JSON',
    )
  }
  const listings = (parsed as { listings?: unknown } | null)?.listings
  const entries = Array.isArray(parsed)
    ? parsed
    : listings && typeof listings === 'object'
      ? Object.values(listings)
      : fail('must be a JSON array of wallet entries (or { "listings": { … } })')
  return entries.map((entry, index) => checkEntry(entry, index, fail))
}

function checkEntry(value: unknown, index: number, fail: (why: string) => never): ListingEntry {
  const entry = value as Partial<ListingEntry> | null
  const at = `entry ${index}`
  if (typeof entry !== 'object' || entry === null) fail(`${at} is not an object`)
  if (typeof entry.id !== 'string' || !/^[\w.-]{1,128}$/.test(entry.id))
    fail(`${at} needs an "id" (letters, digits, ".", "-" or "_")`)
  if (typeof entry.name !== 'string' || entry.name === '') fail(`${at} (${entry.id}) needs a "name"`)
  const str = (v: unknown, field: string) => {
    if (v !== undefined && v !== null && typeof v !== 'string')
      fail(`${at} (${entry.id}): "${field}" must be a string`)
    return typeof v === 'string' ? v : ''
  }
  for (const field of LINK_FIELDS) str(entry[field], field)
  const pair = (v: unknown, field: string) => {
    const o = (v ?? {}) as { native?: unknown; universal?: unknown }
    return { native: str(o.native, `${field}.native`), universal: str(o.universal, `${field}.universal`) }
  }
  const image = str(entry.image_url?.sm ?? entry.image_url?.md, 'image_url')
  if (!SAFE_IMAGE.test(image))
    fail(`${at} (${entry.id}): "image_url" must be a path on this server (/…) or a data:image URL`)
  const app = (entry.app ?? {}) as Record<string, unknown>
  const appField = (name: keyof ListingEntry['app']) => str(app[name], `app.${name}`)
  return {
    id: entry.id,
    name: entry.name,
    homepage: str(entry.homepage, 'homepage'),
    rdns: str(entry.rdns, 'rdns') || null,
    chains: Array.isArray(entry.chains) ? entry.chains.filter((c): c is string => typeof c === 'string') : [],
    versions: ['2'],
    app_type: 'wallet',
    image_url: { sm: image, md: image, lg: image },
    mobile: pair(entry.mobile, 'mobile'),
    desktop: pair(entry.desktop, 'desktop'),
    app: {
      browser: appField('browser'),
      ios: appField('ios'),
      android: appField('android'),
      chrome: appField('chrome'),
      firefox: appField('firefox'),
      safari: appField('safari'),
      edge: appField('edge'),
      mac: appField('mac'),
      windows: appField('windows'),
      linux: appField('linux'),
    },
    metadata: { shortName: entry.metadata?.shortName ?? entry.name, colors: { primary: '', secondary: '' } },
  }
}
