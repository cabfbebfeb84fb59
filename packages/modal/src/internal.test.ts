import { expect, test } from 'vitest'
import * as internal from './internal.js'

test('exports', () => {
  expect(Object.keys(internal).sort()).toMatchInlineSnapshot(`
    [
      "QR_LEVEL_M_MAX_BYTES",
      "SEARCH_DEBOUNCE_MS",
      "createCopyLink",
      "createWalletList",
      "encodeQr",
      "getMonogram",
      "renderQrCode",
    ]
  `)
})
