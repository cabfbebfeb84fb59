export {
  COPIED_NOTIFICATION_MS,
  EXPIRY_MARGIN_MS,
  EXPLORER_ENTRIES,
  MODAL_FADE_MS,
  WALLETS_PER_PAGE,
} from './constants.js'
export { ModalEnvironmentError, QrCodeError, RegistryError } from './errors.js'
export {
  getInjectedWallets,
  type InjectedProvider,
  type InjectedWallet,
  type InjectedWalletInfo,
  LEGACY_RDNS,
  saveInjectedChoice,
  watchInjectedWallets,
} from './injected/index.js'
export {
  createTranslator,
  formatMessage,
  getDirection,
  LANGUAGES,
  type Language,
  type MessageTable,
  type MessageValues,
  matchLanguage,
  resolveLanguage,
  type Translator,
  toLanguage,
} from './locales/languages.js'
export {
  getStrings,
  hasStrings,
  loadStrings,
  resolveModalLanguage,
  type Strings,
} from './locales/strings.js'
export { close, open, setStatus, showError } from './open.js'
export { type DetectPlatformParameters, detectPlatform, type Platform } from './platform/detectPlatform.js'
export {
  type CreateModalParameters,
  createModal,
  type Modal,
  type ModalCallbacks,
  type ModalOptions,
  type ModalStatus,
} from './QrModal/createModal.js'
export { type FetchRegistryParameters, fetchRegistry } from './registry/fetchRegistry.js'
export {
  type FocusWalletParameters,
  focusWallet,
  readDeepLinkChoice,
} from './registry/focusWallet.js'
export { formatDeepLink, type Wallet } from './registry/formatDeepLink.js'
export { filterWallets, parseRegistry } from './registry/parseRegistry.js'
export {
  type Explorer,
  explorerImageUrl,
  type RegistrySource,
  type ResolveRegistryParameters,
  resolveRegistry,
} from './registry/resolveRegistry.js'
export { type DeepLinkChoice, saveDeepLinkChoice } from './registry/saveDeepLinkChoice.js'
export type { Theme } from './themes/resolveTheme.js'
