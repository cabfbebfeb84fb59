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
      "QR_LEVEL_M_MAX_BYTES",
      "QrCodeError",
      "RegistryError",
      "SEARCH_DEBOUNCE_MS",
      "WALLETS_PER_PAGE",
      "close",
      "createCopyLink",
      "createModal",
      "createWalletList",
      "detectPlatform",
      "encodeQr",
      "explorerImageUrl",
      "fetchRegistry",
      "filterWallets",
      "focusWallet",
      "formatDeepLink",
      "getDirection",
      "getInjectedWallets",
      "getMonogram",
      "getStrings",
      "open",
      "parseRegistry",
      "readDeepLinkChoice",
      "renderQrCode",
      "resolveLanguage",
      "resolveRegistry",
      "saveDeepLinkChoice",
      "saveInjectedChoice",
      "setStatus",
      "showError",
      "watchInjectedWallets",
    ]
  `)
})
