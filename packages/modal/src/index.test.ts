import { expect, test } from 'vitest'
import * as modal from './index.js'

test('exports', () => {
  expect(Object.keys(modal).sort()).toMatchInlineSnapshot(`
    [
      "COPIED_NOTIFICATION_MS",
      "DEFAULT_REGISTRY_URL",
      "EXPIRY_MARGIN_MS",
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
      "fetchRegistry",
      "filterWallets",
      "formatDeepLink",
      "getDirection",
      "getInjectedWallets",
      "getMonogram",
      "getStrings",
      "open",
      "parseRegistry",
      "renderQrCode",
      "resolveLanguage",
      "saveDeepLinkChoice",
      "saveInjectedChoice",
      "setStatus",
      "watchInjectedWallets",
    ]
  `)
})
