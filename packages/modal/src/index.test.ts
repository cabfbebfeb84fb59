import { expect, test } from 'vitest'
import * as modal from './index.js'

test('exports', () => {
  expect(Object.keys(modal).sort()).toMatchInlineSnapshot(`
    [
      "COPIED_NOTIFICATION_MS",
      "EXPIRY_MARGIN_MS",
      "EXPLORER_ENTRIES",
      "LANGUAGES",
      "LEGACY_RDNS",
      "MODAL_FADE_MS",
      "ModalEnvironmentError",
      "QrCodeError",
      "RegistryError",
      "WALLETS_PER_PAGE",
      "close",
      "createModal",
      "createTranslator",
      "detectPlatform",
      "explorerImageUrl",
      "fetchRegistry",
      "filterWallets",
      "focusWallet",
      "formatDeepLink",
      "formatMessage",
      "getDirection",
      "getInjectedWallets",
      "getStrings",
      "hasStrings",
      "loadStrings",
      "matchLanguage",
      "open",
      "parseRegistry",
      "readDeepLinkChoice",
      "resolveLanguage",
      "resolveModalLanguage",
      "resolveRegistry",
      "saveDeepLinkChoice",
      "saveInjectedChoice",
      "setStatus",
      "showError",
      "toLanguage",
      "watchInjectedWallets",
    ]
  `)
})
