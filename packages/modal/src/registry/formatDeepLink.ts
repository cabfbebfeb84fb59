/** A wallet of the registry as the modal uses it (v1's normalised entry, reference §6.6). */
export type Wallet = {
  /** Full name, e.g. `Rainbow`. */
  name: string
  /** `metadata.shortName`, shown under the icon when set. */
  shortName: string
  /** `metadata.colors.primary`, the icon's background; `''` when the registry has none. */
  color: string
  /** `image_url.sm` when it is an `http(s)` address, else `''`: the icon; without one, a monogram is drawn. */
  logo: string
  /** `{mobile|desktop}.universal`, or `''`. */
  universalLink: string
  /** `{mobile|desktop}.native`, or `''`. */
  deepLink: string
  /**
   * The wallet's EIP-6963 reverse-DNS name (`io.metamask`), or `''`: a wallet the browser announces under it is
   * listed once, among the browser wallets.
   */
  rdns: string
}

/**
 * Builds the link that opens a wallet with a `wc:` URI (reference §6.6): the universal link first
 * (`{universal}/wc?uri=…`), else the native scheme (`rainbow:` → `rainbow://wc?uri=…`,
 * `examplewallet://` → `examplewallet:///wc?uri=…`), else `''`.
 *
 * @example
 * formatDeepLink({ universalLink: 'https://rnbwapp.com', deepLink: 'rainbow:' }, uri)
 * // 'https://rnbwapp.com/wc?uri=wc%3A…'
 */
export function formatDeepLink(wallet: Pick<Wallet, 'universalLink' | 'deepLink'>, uri: string): string {
  const encoded = encodeURIComponent(uri)
  if (wallet.universalLink) return `${wallet.universalLink}/wc?uri=${encoded}`
  if (wallet.deepLink) {
    // v1 appends `//` only to a bare scheme; a scheme that already has `//` gets a path slash (`:///wc`).
    const separator = wallet.deepLink.endsWith(':') ? '//' : '/'
    return `${wallet.deepLink}${separator}wc?uri=${encoded}`
  }
  return ''
}
