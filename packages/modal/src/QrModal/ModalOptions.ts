import type { InjectedWallet } from '../injected/injectedWallets.js'
import type { Language } from '../locales/languages.js'
import type { Platform } from '../platform/detectPlatform.js'
import type { Theme } from '../themes/resolveTheme.js'

/**
 * What the modal says about the bridge or relay the pairing goes through: `'ready'`; `'unreachable'` while the dapp's
 * client cannot reach it and retries (the QR code is dimmed and marked busy: no wallet could pair through it yet); or
 * `'refused'` when the relay refused this site for good (WalletConnect's relay closes with code 3000: no project id,
 * an unknown one, an origin not on the project's allow-list): the code, the lists and the countdown give way to one
 * message — the app's words, else `relay_refused` in the modal's language — and nothing retries by itself.
 */
export type ModalStatus = 'ready' | 'unreachable' | 'refused'

/** Options of the modal, a superset of v1's `qrcodeModalOptions`. */
export type ModalOptions = {
  /**
   * The wallet list: a registry answering `{ listings, count }` (the Pairlink server's `/registry/wallets.json`) or
   * WalletConnect's explorer answering `{ data }`.
   * @default WalletConnect's explorer with a `projectId`; without one, no list (the QR code, Android's Connect)
   */
  registryUrl?: string | undefined
  /**
   * A WalletConnect project id (dashboard.reown.com): without `registryUrl`, the wallet list comes from WalletConnect's
   * explorer (`getWallets`), its logos from `getWalletImage`.
   */
  projectId?: string | undefined
  /**
   * WalletConnect's explorer API, for a stand-in or a proxy.
   * @default 'https://api.web3modal.org' (`WALLETCONNECT_EXPLORER_URL` of `@pairlink/protocol/v2`)
   */
  explorerUrl?: string | undefined
  /** Allow-list of mobile wallet names, in display order (v1 `mobileLinks`). `[]` shows no list. @default every wallet */
  mobileLinks?: readonly string[] | undefined
  /** Allow-list of desktop wallet names (v1 `desktopLinks`). `[]` shows the QR code only. @default every wallet */
  desktopLinks?: readonly string[] | undefined
  /**
   * The modal's colour scheme (see {@link Theme}); an app passes its own so that the modal looks like it.
   * @default 'auto' (the page's declared `color-scheme`, else the system's)
   */
  theme?: Theme | undefined
  /**
   * The modal's language, as a language tag (`'de'`, `'pt-BR'`); one the modal does not ship gives English.
   * @default the page's `<html lang>`, else `navigator.language`
   */
  language?: Language | (string & {}) | undefined
  /**
   * The dialog's title, in the app's words.
   * @default 'Connect a wallet' (in the modal's language)
   */
  title?: string | undefined
  /**
   * Where focus goes back when the modal closes. An app that opens the modal later than the click (after loading
   * it lazily, when its opener may already be disabled and unfocused) passes the element that was focused.
   * @default the element focused when the modal opened
   */
  returnFocusTo?: Element | null | undefined
  /** Forces the platform (tests, previews). @default detected from the user agent */
  platform?: Platform | undefined
  /** The `fetch` the registry is loaded with. @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /**
   * Gets a fresh pairing URI when a v2 URI's code runs out (`EXPIRY_MARGIN_MS` before its `expiryTimestamp`):
   * called once, while the modal covers the dead code and says `Getting a new code…`, and answered by calling
   * `open(newUri, …)` (or `Modal.setUri`), which swaps the code in place. If it throws or its promise
   * rejects, the modal shows a `Try again` button that calls it again. Without it an expired code just says
   * so, and the person closes the modal. v1 URIs never expire.
   */
  onExpired?: (() => unknown) | undefined
  /**
   * Offers the page's browser wallets (EIP-6963; the legacy `window.ethereum` when none announces itself) above the
   * views, the last one chosen first. Choosing one closes the modal (`onUserClose` does not run) and calls this with
   * it: connect through `wallet.provider` (`eth_requestAccounts`), and cancel the pending pairing, which no wallet
   * will answer now. Without it the modal lists no browser wallet, as before. With it, a wallet of the list whose `rdns`
   * a browser wallet announces is not listed again in the Desktop or Mobile tab.
   */
  onInjected?: ((wallet: InjectedWallet) => void) | undefined
}
