// The init script a test injects into every page (see injectWallets.ts): browser wallets built on the reference
// wallet's signing core, announced through EIP-6963 or set as the legacy window.ethereum, as their config says.
import { getDevAccount } from '../../../apps/wallet/src/core/accounts.js'
import { createInjectedProvider } from './createInjectedProvider.js'
import type { InjectedWalletsConfig } from './injectWallets.js'

declare global {
  interface Window {
    __PAIRLINK_INJECTED__?: InjectedWalletsConfig
    /** Each injected wallet's controls, by rdns: what the person would do in the wallet's own window. */
    injectedWallets: Record<
      string,
      {
        setAccount: (index: number) => void
        disconnect: () => void
        setRefusing: (refusing: boolean) => void
        requests: string[]
      }
    >
  }
}

const config = window.__PAIRLINK_INJECTED__
window.injectedWallets = {}
for (const wallet of config?.wallets ?? []) {
  const { provider, controls } = createInjectedProvider({
    account: getDevAccount(wallet.account),
    chains: Object.fromEntries(Object.entries(config?.chains ?? {}).map(([id, url]) => [Number(id), url])),
    chainId: config?.chainId ?? 0,
    // The extension's own storage, per site: the page's localStorage under a key of the wallet's.
    store: {
      read: () => JSON.parse(localStorage.getItem(`injected-wallet:${wallet.rdns}`) ?? 'null') ?? undefined,
      write: (state) => localStorage.setItem(`injected-wallet:${wallet.rdns}`, JSON.stringify(state)),
    },
  })
  window.injectedWallets[wallet.rdns] = {
    setAccount: (index) => controls.setAccount(getDevAccount(index)),
    disconnect: controls.disconnect,
    setRefusing: controls.setRefusing,
    requests: controls.requests,
  }
  if (wallet.legacy) {
    // A wallet of before EIP-6963: only window.ethereum, with its flags (isMetaMask…) for dapps to guess its name.
    Object.assign(window, { ethereum: Object.freeze({ ...provider, ...wallet.legacy }) })
    continue
  }
  const info = { uuid: wallet.uuid, name: wallet.name, icon: wallet.icon, rdns: wallet.rdns }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  // EIP-6963: announce now, and again to every dapp that asks later.
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}
