import { requestProviders } from 'mipd'
import { readLegacyWallet } from './readLegacyWallet.js'

/** An EIP-1193 provider, as a wallet injects it into the page. */
export type InjectedProvider = {
  request: (args: { method: string; params?: unknown }) => Promise<unknown>
  on?: ((event: string, listener: (...args: never[]) => void) => unknown) | undefined
  removeListener?: ((event: string, listener: (...args: never[]) => void) => unknown) | undefined
}

/** How a wallet presents itself (EIP-6963 `EIP6963ProviderInfo`); every field is the page's, untrusted. */
export type InjectedWalletInfo = {
  /** A UUIDv4 per provider and page load. */
  uuid: string
  /** The wallet's name, to show as text. */
  name: string
  /** A data URI (RFC 2397) by the spec, but anything may come: show it only as an `<img>` of a `data:image/` URI. */
  icon: string
  /** The wallet's reverse domain name (`io.metamask`): how wallets are told apart and remembered. */
  rdns: string
}

/** A browser wallet the page offers (EIP-6963 `EIP6963ProviderDetail`): who it is, and its provider. */
export type InjectedWallet = { readonly info: InjectedWalletInfo; readonly provider: InjectedProvider }

/** Where the last chosen wallet's `rdns` is kept. */
const CHOICE_KEY = 'PAIRLINK_INJECTED_WALLET'

const listeners = new Set<(wallets: readonly InjectedWallet[]) => void>()
let announced: InjectedWallet[] | undefined
let last: readonly InjectedWallet[] = []

/**
 * The browser wallets on this page, the last one chosen (see {@link saveInjectedChoice}) first, then in the order
 * they announced themselves (EIP-6963), one per `rdns` (the first to claim it: a later one may be an imitation, or
 * the same wallet again). When none announces, the legacy `window.ethereum` if there is one (`rdns` `window.ethereum`,
 * named from its flags such as `isMetaMask`). The first call starts listening, for the page's lifetime as EIP-6963
 * asks. The same array until something changes, so it can serve as a `useSyncExternalStore` snapshot.
 *
 * @example
 * const [wallet] = getInjectedWallets()
 * await wallet?.provider.request({ method: 'eth_requestAccounts' })
 */
export function getInjectedWallets(): readonly InjectedWallet[] {
  const found = discover()
  const legacy = found.length ? undefined : readLegacyWallet()
  const wallets = legacy ? [legacy] : found
  const choice = readChoice()
  const next = [
    ...wallets.filter(({ info }) => info.rdns === choice),
    ...wallets.filter(({ info }) => info.rdns !== choice),
  ]
  if (next.length !== last.length || next.some((wallet, i) => wallet !== last[i])) last = next
  return last
}

/**
 * Calls `onChange` with the new list (as {@link getInjectedWallets}) whenever a wallet announces itself or the choice
 * changes; returns a function that stops. A wallet may announce itself late (an extension loading after the page).
 *
 * @example
 * const unwatch = watchInjectedWallets((wallets) => render(wallets))
 */
export function watchInjectedWallets(onChange: (wallets: readonly InjectedWallet[]) => void): () => void {
  discover()
  listeners.add(onChange)
  return () => void listeners.delete(onChange)
}

/**
 * Remembers the wallet the person chose, by `rdns`, so that it comes first next time (the modal calls it when one
 * is chosen). Storage errors (private mode, a full quota) are ignored.
 */
export function saveInjectedChoice(rdns: string): void {
  try {
    localStorage.setItem(CHOICE_KEY, rdns)
  } catch {}
  notify()
}

function discover(): readonly InjectedWallet[] {
  if (announced) return announced
  const wallets: InjectedWallet[] = []
  announced = wallets
  // EIP-6963: the dapp never removes its listener, so a wallet that loads later is still heard.
  requestProviders((detail: unknown) => {
    if (!isWallet(detail) || wallets.some(({ info }) => info.rdns === detail.info.rdns)) return
    wallets.push(detail)
    notify()
  })
  return wallets
}

function notify(): void {
  const wallets = getInjectedWallets()
  for (const listener of listeners) listener(wallets)
}

function readChoice(): string | null {
  try {
    return localStorage.getItem(CHOICE_KEY)
  } catch {
    return null
  }
}

/** Any script on the page can dispatch the event: take only what has the shape, with a name to show. */
function isWallet(detail: unknown): detail is InjectedWallet {
  const { info, provider } = (detail ?? {}) as Partial<InjectedWallet>
  return (
    typeof info?.rdns === 'string' &&
    typeof info.name === 'string' &&
    info.rdns !== '' &&
    info.name !== '' &&
    typeof provider?.request === 'function'
  )
}
