import type { InjectedProvider, InjectedWallet, InjectedWalletInfo } from '../src/injected/injectedWallets.js'

/** A small SVG icon as a data URI, as wallets announce theirs. */
export const ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%23f60"/%3E%3C/svg%3E'

const stops: (() => void)[] = []
let uuids = 0

/** An EIP-1193 provider that answers every request with `null` (the wallet's own seam: its answers are not tested here). */
export function fakeProvider(): InjectedProvider {
  return { request: async () => null }
}

/**
 * Announces a wallet as an EIP-6963 wallet does: once now, and again at each `eip6963:requestProvider`, with a frozen
 * detail. {@link stopAnnouncing} stops answering requests.
 */
export function announce(
  info: Partial<InjectedWalletInfo> & Pick<InjectedWalletInfo, 'rdns'>,
  provider: InjectedProvider = fakeProvider(),
): InjectedWallet {
  const detail = Object.freeze({
    info: {
      uuid: `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`,
      name: info.rdns,
      icon: ICON,
      ...info,
    },
    provider,
  })
  const send = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', send)
  stops.push(() => window.removeEventListener('eip6963:requestProvider', send))
  send()
  return detail
}

/** Stops every wallet {@link announce} started from answering requests. */
export function stopAnnouncing(): void {
  for (const stop of stops.splice(0)) stop()
}

/** Sets (or, with `undefined`, removes) the legacy `window.ethereum`. */
export function setLegacy(provider: (InjectedProvider & Record<string, unknown>) | undefined): void {
  if (provider) Object.assign(window, { ethereum: provider })
  else delete (window as { ethereum?: unknown }).ethereum
}
