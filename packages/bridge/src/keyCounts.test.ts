import { expect, test } from 'vitest'
import { createKeyCounts } from './keyCounts.js'

test('behavior: counts up and down per key, forgetting a key at zero', () => {
  const counts = createKeyCounts()
  expect(counts.add('a')).toBe(1)
  expect(counts.add('a', 4)).toBe(5)
  expect(counts.add('a', -5)).toBe(0)
  expect(counts.has('a')).toBe(false)
  expect(counts.get('a')).toBe(0)
  // Below zero is forgotten too: a count never goes negative.
  expect(counts.add('b', -1)).toBe(-1)
  expect(counts.has('b')).toBe(false)
  expect(counts.get('b')).toBe(0)
})
