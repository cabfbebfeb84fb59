import { fileURLToPath } from 'node:url'
import { bundle } from '@pairlink/test-kit/bundle'
import { expect, test } from 'vitest'
import * as v2 from './index.js'

test('exports', () => {
  expect(Object.keys(v2).sort()).toMatchInlineSnapshot(`
    [
      "RelayError",
      "SDK_ERRORS",
      "SIGN_ERRORS",
      "SignError",
      "connect",
      "createSignClient",
      "disconnect",
      "extend",
      "getSession",
      "getSessions",
      "ping",
      "request",
    ]
  `)
})

test('behavior: the v1 entry bundles no v2 code and no v2 crypto', async () => {
  const v1 = await bundle({ entry: fileURLToPath(new URL('../index.ts', import.meta.url)), external: ['ws'] })
  expect(v1.text).not.toContain('wc_sessionPropose')
  expect(v1.packages).not.toContain('@noble/curves')
  // The same check sees them in the v2 entry.
  const v2 = await bundle({ entry: fileURLToPath(new URL('./index.ts', import.meta.url)), external: ['ws'] })
  expect(v2.text).toContain('wc_sessionPropose')
  expect(v2.packages).toContain('@noble/curves')
})
