import { RegistryError } from '../errors.js'
import type { Wallet } from './formatDeepLink.js'
import { type Explorer, explorerImageUrl } from './resolveRegistry.js'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

// A registry is remote data: a `javascript:` or `data:` "deep link" would run script in the dapp's origin on click.
const isHttp = (value: unknown) => /^https?:\/\//i.test(text(value))
const universal = (value: unknown): string => (isHttp(value) ? text(value) : '')
const native = (value: unknown): string =>
  /^\s*(javascript|data|vbscript|file|blob|about|https?):/i.test(text(value)) ? '' : text(value)

/**
 * Turns a wallet list into the wallets that have a link on one side (`mobile` or `desktop`), in the list's order.
 * It reads both shapes the modal may be given:
 * - the registry's `{ listings: { <id>: entry } }` (the Pairlink server's `/registry/wallets.json`): links from
 *   `{mobile|desktop}.{universal,native}`, the icon from `image_url.sm`, the colour from `metadata.colors.primary`;
 * - WalletConnect's explorer `{ data: WcWallet[] }`: `mobile_link` / `desktop_link` as the universal link when it is
 *   `http(s)`, else as the native scheme; the icon from `image_url`, else `{explorer}/getWalletImage/{image_id}`
 *   (with `explorer` given).
 *
 * Universal links must be `http(s)`, script-running schemes (`javascript:`, `data:`…) are dropped as native links,
 * and icons are only `http(s)` addresses. Throws {@link RegistryError} when the answer is neither shape; a single odd
 * entry (no name, no links, missing colours) is skipped or defaulted instead of failing the whole list as v1 did.
 *
 * @example
 * parseRegistry(await response.json(), 'mobile') // [{ name: 'Rainbow', universalLink: 'https://rnbwapp.com', … }]
 */
export function parseRegistry(data: unknown, side: 'mobile' | 'desktop', explorer?: Explorer): Wallet[] {
  const entries = isObject(data)
    ? isObject(data.listings)
      ? Object.values(data.listings).map(fromListing(side))
      : Array.isArray(data.data)
        ? data.data.map(fromExplorer(side, explorer))
        : undefined
    : undefined
  if (!entries) {
    throw new RegistryError('Wallet registry is malformed', {
      details: 'expected { listings: { <id>: entry } } or { data: [wallet] }',
    })
  }
  return entries.filter(
    (wallet): wallet is Wallet => wallet !== undefined && (wallet.universalLink || wallet.deepLink) !== '',
  )
}

function fromListing(side: 'mobile' | 'desktop') {
  return (entry: unknown): Wallet | undefined => {
    if (!isObject(entry) || !text(entry.name)) return undefined
    const links = isObject(entry[side]) ? entry[side] : {}
    const metadata = isObject(entry.metadata) ? entry.metadata : {}
    const colors = isObject(metadata.colors) ? metadata.colors : {}
    const images = isObject(entry.image_url) ? entry.image_url : {}
    return {
      name: text(entry.name),
      shortName: text(metadata.shortName),
      color: text(colors.primary),
      // Only an image the registry gives, and only over http(s): never a made-up CDN address, never `data:`.
      logo: universal(images.sm),
      universalLink: universal(links.universal),
      deepLink: native(links.native),
      rdns: text(entry.rdns),
    }
  }
}

function fromExplorer(side: 'mobile' | 'desktop', explorer: Explorer | undefined) {
  return (entry: unknown): Wallet | undefined => {
    if (!isObject(entry) || !text(entry.name)) return undefined
    const link = side === 'mobile' ? entry.mobile_link : entry.desktop_link
    const image = isObject(entry.image_url) ? entry.image_url.sm : entry.image_url
    const imageId = text(entry.image_id)
    return {
      name: text(entry.name),
      shortName: '',
      color: '',
      logo: universal(image) || (explorer && imageId ? explorerImageUrl(explorer, imageId) : ''),
      universalLink: universal(link),
      deepLink: native(link),
      rdns: text(entry.rdns),
    }
  }
}

/**
 * Applies a v1 allow-list (`mobileLinks` / `desktopLinks`): for each name, in the list's order, the first wallet
 * whose name contains it (case-insensitive); names that match nothing are dropped. Without a list, every wallet.
 */
export function filterWallets(
  wallets: readonly Wallet[],
  allowList?: readonly string[] | undefined,
): Wallet[] {
  if (!allowList) return [...wallets]
  const picked: Wallet[] = []
  for (const wanted of allowList) {
    const needle = wanted.toLowerCase()
    const match = wallets.find((wallet) => wallet.name.toLowerCase().includes(needle))
    if (match && !picked.includes(match)) picked.push(match)
  }
  return picked
}
