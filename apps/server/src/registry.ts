import { readFileSync } from 'node:fs'

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

/**
 * Loads the registry data copied into the project (from shared/registry/wallets.json) and puts the reference wallet
 * first, its universal link pointing at this server's `/wallet`, so the modal's deep link is `{origin}/wallet/wc?uri=…`.
 */
export function createRegistry(file: string, origin: string): Registry {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Registry
  const wallet = `${origin.replace(/\/$/, '')}/wallet`
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
  const listings = { [REFERENCE_WALLET_ID]: reference, ...data.listings }
  return { listings, count: Object.keys(listings).length }
}
