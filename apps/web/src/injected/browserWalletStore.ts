/**
 * Where the app keeps the `rdns` of the browser wallet it is connected through, so a reload restores that session (the
 * modal keeps its own "last chosen" for its list's order). Read before the first render (`main.tsx` preloads the
 * connected view when it is set).
 */
export const BROWSER_WALLET_KEY = 'pairlink-browser-wallet'

/** The stored wallet's `rdns`, or `undefined`. Storage errors (private mode) read as nothing stored. */
export function storedBrowserWallet(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(BROWSER_WALLET_KEY) || undefined
  } catch {
    return undefined
  }
}

/** Stores the wallet the app connected through. A full or refused storage only loses the restore. */
export function rememberBrowserWallet(rdns: string): void {
  try {
    globalThis.localStorage?.setItem(BROWSER_WALLET_KEY, rdns)
  } catch {}
}

/** Forgets it: the session ended. */
export function forgetBrowserWallet(): void {
  try {
    globalThis.localStorage?.removeItem(BROWSER_WALLET_KEY)
  } catch {}
}
