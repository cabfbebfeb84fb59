import { RegistryError } from '../errors.js'
import type { Wallet } from './formatDeepLink.js'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null
const text = (value: unknown): string => (typeof value === 'string' ? value : '')

// A registry is remote data: a `javascript:` or `data:` "deep link" would run script in the dapp's origin on click.
const universal = (value: unknown): string => (/^https?:\/\//i.test(text(value)) ? text(value) : '')
const native = (value: unknown): string =>
  /^\s*(javascript|data|vbscript|file|blob|about):/i.test(text(value)) ? '' : text(value)

/**
 * Turns a registry response (the v2 shape `{ listings: { <id>: entry }, count }`) into the wallets that have a
 * link on one side (`mobile` or `desktop`), in registry order. Universal links must be `http(s)`, and script-running
 * schemes (`javascript:`, `data:`…) are dropped as native links. Throws {@link RegistryError} when the response
 * itself is not that shape; a single odd entry (no name, no links, missing colours) is skipped or defaulted
 * instead of failing the whole list as v1 did.
 *
 * @example
 * parseRegistry(await response.json(), 'mobile') // [{ name: 'Rainbow', universalLink: 'https://rnbwapp.com', … }]
 */
export function parseRegistry(data: unknown, side: 'mobile' | 'desktop'): Wallet[] {
  if (!isObject(data) || !isObject(data.listings)) {
    throw new RegistryError('Wallet registry is malformed', {
      details: 'expected { listings: { <id>: entry } }',
    })
  }
  const wallets: Wallet[] = []
  for (const entry of Object.values(data.listings)) {
    if (!isObject(entry) || !text(entry.name)) continue
    const links = isObject(entry[side]) ? entry[side] : {}
    const metadata = isObject(entry.metadata) ? entry.metadata : {}
    const colors = isObject(metadata.colors) ? metadata.colors : {}
    const images = isObject(entry.image_url) ? entry.image_url : {}
    const wallet: Wallet = {
      name: text(entry.name),
      shortName: text(metadata.shortName),
      color: text(colors.primary),
      // Only an image the registry gives, and only over http(s): never a made-up CDN address, never `data:`.
      logo: universal(images.sm),
      universalLink: universal(links.universal),
      deepLink: native(links.native),
    }
    if (wallet.universalLink || wallet.deepLink) wallets.push(wallet)
  }
  return wallets
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
