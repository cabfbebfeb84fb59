// `@pairlink/modal/injected`: the page's browser wallets (EIP-6963) without the modal, for an app that looks them up
// on its first screen while the modal itself stays a chunk loaded on Connect.
export {
  getInjectedWallets,
  type InjectedProvider,
  type InjectedWallet,
  type InjectedWalletInfo,
  saveInjectedChoice,
  watchInjectedWallets,
} from './injectedWallets.js'
export { LEGACY_RDNS } from './readLegacyWallet.js'
