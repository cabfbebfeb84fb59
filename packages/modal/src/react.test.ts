import { expect, test } from 'vitest'
import * as react from './react.js'

test('exports', () => {
  expect(Object.keys(react).sort()).toMatchInlineSnapshot(`
    [
      "QrModal",
    ]
  `)
})
