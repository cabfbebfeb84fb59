import { expect, test } from 'vitest'
import { byteLength } from './byteLength.js'

test('default', () => {
  for (const text of ['', 'abc', '{"topic":"t"}', 'é', '€', '😀', 'a😀é€z', '\u{10ffff}'])
    expect([text, byteLength(text)]).toEqual([text, Buffer.byteLength(text)])
})
