import { describe, expect, test } from 'vitest'
import { sameOptions } from './sameOptions.js'

describe('sameOptions', () => {
  test('behavior: equal values key by key, arrays element by element, functions left out', () => {
    expect(sameOptions({ mobileLinks: ['a', 'b'], fetch: () => {} }, { mobileLinks: ['a', 'b'] })).toBe(true)
    expect(sameOptions({ mobileLinks: ['a'] }, { mobileLinks: ['a', 'b'] })).toBe(false)
    expect(sameOptions({ theme: 'dark' }, { theme: 'light' })).toBe(false)
    expect(sameOptions({ title: undefined }, {})).toBe(true)
  })

  test('behavior: an element is compared by identity and never serialised (it would throw on its cycles)', () => {
    const a = { self: {} as object }
    a.self = a
    expect(sameOptions({ returnFocusTo: a }, { returnFocusTo: a })).toBe(true)
    expect(sameOptions({ returnFocusTo: a }, { returnFocusTo: { ...a } })).toBe(false)
  })
})
