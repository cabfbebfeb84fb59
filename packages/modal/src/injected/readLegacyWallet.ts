import type { InjectedProvider, InjectedWallet } from './injectedWallets.js'

/** The `rdns` (and `uuid`) of the legacy `window.ethereum` entry, which announces no identity of its own. */
export const LEGACY_RDNS = 'window.ethereum'

/** The legacy entry's name when its flags say nothing; the modal shows it in its own language. */
export const BROWSER_WALLET = 'Browser wallet'

// Most specific first: several wallets also set `isMetaMask` so that dapps written for MetaMask accept them.
const FLAGS = [
  ['isBraveWallet', 'Brave Wallet'],
  ['isCoinbaseWallet', 'Coinbase Wallet'],
  ['isRabby', 'Rabby'],
  ['isTrust', 'Trust Wallet'],
  ['isMetaMask', 'MetaMask'],
] as const

let cached: InjectedWallet | undefined

/**
 * The page's `window.ethereum` as an {@link InjectedWallet} (named from its flags, else `Browser wallet`; no icon),
 * or `undefined` when there is none. The same object while `window.ethereum` stays the same.
 */
export function readLegacyWallet(): InjectedWallet | undefined {
  const provider = (globalThis as { ethereum?: InjectedProvider & Record<string, unknown> }).ethereum
  if (typeof provider?.request !== 'function') return undefined
  if (cached?.provider !== provider) {
    const name = FLAGS.find(([flag]) => provider[flag] === true)?.[1] ?? BROWSER_WALLET
    cached = { info: { uuid: LEGACY_RDNS, name, icon: '', rdns: LEGACY_RDNS }, provider }
  }
  return cached
}
