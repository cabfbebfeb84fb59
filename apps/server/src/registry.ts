import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One entry of the wallet registry (API v2 shape; only the fields the modal reads are typed). */
type RegistryEntry = {
  id: string
  name: string
  homepage: string
  chains: string[]
  versions: string[]
  app_type: string
  image_url: { sm: string; md: string; lg: string }
  mobile: { native: string; universal: string }
  desktop: { native: string; universal: string }
  metadata: { shortName: string; colors: { primary: string; secondary: string } }
  [field: string]: unknown
}

/** The registry document: `{ listings, count }` keyed by wallet id. */
export type Registry = { listings: Record<string, RegistryEntry>; count: number }

/** Id of the reference wallet's registry entry. */
export const REFERENCE_WALLET_ID = 'pairlink-reference-wallet'

/** Where the server serves the icons of its icon folder: `/registry/icons/<file>`. */
export const ICONS_PATH = '/registry/icons'

const ICON_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp' }
// A plain file name (no folder, no leading dot) with an image extension: nothing outside the folder can be named.
const ICON_NAME = /^[a-z0-9][a-z0-9._-]*\.(svg|png|webp)$/i

/**
 * Loads the registry data copied into the project (from shared/registry/wallets.json) and puts the reference wallet
 * first, its universal link pointing at this server's `/wallet`, so the modal's deep link is `{origin}/wallet/wc?uri=…`.
 * With `iconsDir`, each wallet whose id names a file there (`<id>.svg`, `.png` or `.webp`) gets it as its
 * `image_url`, served by this server at {@link ICONS_PATH}: icons without any request to another site.
 */
export function createRegistry(file: string, origin: string, iconsDir?: string | undefined): Registry {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Registry
  const base = origin.replace(/\/$/, '')
  const wallet = `${base}/wallet`
  const reference: RegistryEntry = {
    id: REFERENCE_WALLET_ID,
    name: 'Pairlink Wallet',
    description: 'The Pairlink reference wallet for the dev chain',
    homepage: wallet,
    chains: ['eip155:1', 'eip155:31337'],
    versions: ['1'],
    app_type: 'wallet',
    image_id: '',
    image_url: { sm: '', md: '', lg: '' },
    app: { browser: wallet, ios: '', android: '', mac: '', windows: '', linux: '' },
    mobile: { native: '', universal: wallet },
    desktop: { native: '', universal: wallet },
    metadata: { shortName: 'Pairlink', colors: { primary: '#3b5bdb', secondary: '#ffffff' } },
  }
  const listings: Record<string, RegistryEntry> = { [REFERENCE_WALLET_ID]: reference, ...data.listings }
  for (const [id, icon] of iconsDir ? listIcons(iconsDir) : []) {
    const entry = listings[id]
    const url = `${base}${ICONS_PATH}/${encodeURIComponent(icon)}`
    if (entry) listings[id] = { ...entry, image_url: { sm: url, md: url, lg: url } }
  }
  return { listings, count: Object.keys(listings).length }
}

/**
 * One icon of the folder as the server answers it, or `undefined` for a name that is not a plain image file name
 * or a file that is not there.
 */
export function readWalletIcon(iconsDir: string, name: string): { body: Buffer; type: string } | undefined {
  const extension = ICON_NAME.exec(name)?.[1]?.toLowerCase()
  const type = extension && ICON_TYPES[extension]
  if (!type) return undefined
  try {
    return { body: readFileSync(join(iconsDir, name)), type }
  } catch {
    return undefined
  }
}

/** The icon files of the folder by wallet id (the file name without its extension); none if it does not exist. */
function listIcons(iconsDir: string): Map<string, string> {
  let names: string[] = []
  try {
    names = readdirSync(iconsDir)
  } catch {}
  return new Map(
    names.filter((name) => ICON_NAME.test(name)).map((name) => [name.replace(/\.[^.]+$/, ''), name]),
  )
}
