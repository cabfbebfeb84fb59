/**
 * One wallet as WalletConnect's explorer answers it (`GET /getWallets` → `{ count, data: WcWallet[] }`), plus the
 * fields the bundled snapshot adds (`universal_link`, the store links of other browsers, `logo`, `color`).
 */
export type WcWallet = {
  id: string
  name: string
  homepage?: string | null
  rdns?: string | null
  image_id?: string | null
  order?: number | null
  mobile_link?: string | null
  desktop_link?: string | null
  webapp_link?: string | null
  app_store?: string | null
  play_store?: string | null
  chrome_store?: string | null
  chains?: readonly string[] | null
  /** Snapshot only: the universal link beside a native `mobile_link`. */
  universal_link?: string | null
  /** Snapshot only. */
  firefox_store?: string | null
  /** Snapshot only. */
  edge_store?: string | null
  /** Snapshot only: its logo's file name under `data/logos/`. */
  logo?: string | null
  /** Snapshot only: the logo's background colour. */
  color?: string | null
}

/** One entry of `/registry/wallets.json` (the registry v2 shape the modal parses, with `rdns`). */
export type ListingEntry = {
  id: string
  name: string
  homepage: string
  rdns: string | null
  chains: string[]
  versions: string[]
  app_type: 'wallet'
  image_url: { sm: string; md: string; lg: string }
  mobile: { native: string; universal: string }
  desktop: { native: string; universal: string }
  app: {
    browser: string
    ios: string
    android: string
    chrome: string
    firefox: string
    safari: string
    edge: string
    mac: string
    windows: string
    linux: string
  }
  metadata: { shortName: string; colors: { primary: string; secondary: string } }
}

const isWeb = (link: string) => /^https?:\/\//i.test(link)
const text = (value: unknown) => (typeof value === 'string' ? value : '')

/**
 * The one mapping from an explorer (or snapshot) wallet to a listing entry: a `mobile_link` in http(s) is the
 * universal link, any other scheme the native one; store links go into `app`; `rdns` is kept for matching EIP-6963
 * announcements. `logoUrl` is this server's URL of the wallet's logo ('' for none), never the explorer's.
 */
export function toListing(wallet: WcWallet, logoUrl: string): ListingEntry {
  const mobile = text(wallet.mobile_link)
  const desktop = text(wallet.desktop_link)
  const universal = isWeb(mobile) ? mobile : text(wallet.universal_link)
  return {
    id: wallet.id,
    name: wallet.name,
    homepage: text(wallet.homepage),
    rdns: text(wallet.rdns) || null,
    chains: Array.isArray(wallet.chains) ? wallet.chains.filter((chain) => typeof chain === 'string') : [],
    versions: ['2'],
    app_type: 'wallet',
    image_url: { sm: logoUrl, md: logoUrl, lg: logoUrl },
    mobile: { native: isWeb(mobile) ? '' : mobile, universal },
    desktop: { native: isWeb(desktop) ? '' : desktop, universal: isWeb(desktop) ? desktop : '' },
    app: {
      browser: text(wallet.webapp_link),
      ios: text(wallet.app_store),
      android: text(wallet.play_store),
      chrome: text(wallet.chrome_store),
      firefox: text(wallet.firefox_store),
      safari: '',
      edge: text(wallet.edge_store),
      mac: '',
      windows: '',
      linux: '',
    },
    metadata: { shortName: wallet.name, colors: { primary: text(wallet.color), secondary: '' } },
  }
}

/** Whether `value` has the two fields every explorer wallet must have (the rest is read defensively). */
export function isWcWallet(value: unknown): value is WcWallet {
  const wallet = value as WcWallet | null
  return (
    typeof wallet === 'object' &&
    wallet !== null &&
    typeof wallet.id === 'string' &&
    /^[\w.-]{1,128}$/.test(wallet.id) &&
    typeof wallet.name === 'string' &&
    wallet.name.length > 0
  )
}
