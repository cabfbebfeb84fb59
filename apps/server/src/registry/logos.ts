import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ListingEntry } from './toListing.js'

/** Id of the reference wallet's registry entry (always first in the list). */
export const REFERENCE_WALLET_ID = 'pairlink-reference-wallet'

/** Where the server serves wallet logos: `/registry/logos/<name>`. */
export const LOGOS_PATH = '/registry/logos'

const LOGO_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp' }
// A plain file name (no folder, no leading dot) with an image extension: nothing outside the folder can be named.
const LOGO_NAME = /^[a-z0-9][a-z0-9._-]*\.(svg|png|webp)$/i

/**
 * Pairlink's reference wallet, its links on this server (`{origin}/wallet`), so the modal's deep link is
 * `{origin}/wallet/wc?uri=…`.
 */
export function referenceWallet(base: string): ListingEntry {
  const wallet = `${base}/wallet`
  const logo = `${base}${LOGOS_PATH}/${REFERENCE_WALLET_ID}.svg`
  return {
    id: REFERENCE_WALLET_ID,
    name: 'Pairlink Wallet',
    homepage: wallet,
    rdns: null,
    chains: ['eip155:1', 'eip155:31337'],
    versions: ['2'],
    app_type: 'wallet',
    image_url: { sm: logo, md: logo, lg: logo },
    mobile: { native: '', universal: wallet },
    desktop: { native: '', universal: wallet },
    app: {
      browser: wallet,
      ios: '',
      android: '',
      chrome: '',
      firefox: '',
      safari: '',
      edge: '',
      mac: '',
      windows: '',
      linux: '',
    },
    metadata: { shortName: 'Pairlink', colors: { primary: '#3b5bdb', secondary: '#ffffff' } },
  }
}

/** One logo file of the folder, or `undefined` for a name that is not a plain image file name or is not there. */
export function readLogoFile(dir: string, name: string): { body: Buffer; type: string } | undefined {
  const extension = LOGO_NAME.exec(name)?.[1]?.toLowerCase()
  const type = extension && LOGO_TYPES[extension]
  if (!type) return undefined
  try {
    return { body: readFileSync(join(dir, name)), type }
  } catch {
    return undefined
  }
}
