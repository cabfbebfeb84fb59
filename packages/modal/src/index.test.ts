import { expect, test } from 'vitest'
import * as modal from './index.js'

test('exports', () => {
  expect(Object.keys(modal).sort()).toMatchInlineSnapshot(`
    [
      "LANGUAGES",
      "ModalEnvironmentError",
      "QR_LEVEL_M_MAX_BYTES",
      "QrCodeError",
      "QrModal",
      "RegistryError",
      "SEARCH_DEBOUNCE_MS",
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
      "getMonogram",
      "getStrings",
      "open",
      "parseRegistry",
      "renderQrCode",
      "resolveLanguage",
      "saveDeepLinkChoice",
    ]
  `)
})
