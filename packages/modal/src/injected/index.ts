// `@pairlink/modal/injected`: the page's browser wallets (EIP-6963) without the modal, for an app that looks them up
// on its first screen while the modal itself stays a chunk loaded on Connect; and the wallet the person tapped in the
// modal's list, brought forward before each request on a phone, which an app's connected view calls without the modal.
export { type FocusWalletParameters, focusWallet, readDeepLinkChoice } from '../registry/focusWallet.js'
export {
  getInjectedWallets,
  type InjectedProvider,
  type InjectedWallet,
  type InjectedWalletInfo,
  saveInjectedChoice,
  watchInjectedWallets,
} from './injectedWallets.js'
export { LEGACY_RDNS } from './readLegacyWallet.js'
