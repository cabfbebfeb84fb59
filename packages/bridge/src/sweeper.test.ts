import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test } from 'vitest'
import { createSweeper, type Sweeper } from './sweeper.js'

const sweepers: Sweeper[] = []
afterEach(() => {
  for (const sweeper of sweepers.splice(0)) sweeper.stop()
})

/** Sweeps `items`, recording each visit with the slice it happened in. */
function sweep(items: Set<number>, intervalMs: number, sliceMs: number) {
  const visits: { item: number; at: number }[] = []
  let slice = 0
  let lastAt = -1
  const sweeper = createSweeper({
    intervalMs,
    sliceMs,
    items: () => items,
    visit(item) {
      const at = performance.now()
      // Visits of one slice happen in one synchronous loop, so within well under a millisecond.
      if (at - lastAt > 1) slice++
      lastAt = at
      visits.push({ item, at: slice })
    },
  })
  sweepers.push(sweeper)
  return visits
}

test('default', async () => {
  const items = new Set(Array.from({ length: 1_000 }, (_, i) => i))
  const visits = sweep(items, 200, 10)
  await waitFor(() => visits.length >= 2_000, { message: 'two passes', timeout: 5_000 })
  // Each item once per pass, in the collection's order.
  expect(visits.slice(0, 1_000).map((v) => v.item)).toEqual([...items])
  expect(visits.slice(1_000, 2_000).map((v) => v.item)).toEqual([...items])
})

test('behavior: a pass is spread over slices, none visiting much more than its share', async () => {
  const items = new Set(Array.from({ length: 1_000 }, (_, i) => i))
  const visits = sweep(items, 200, 10)
  await waitFor(() => visits.length >= 1_000, { message: 'one pass', timeout: 5_000 })
  const perSlice = new Map<number, number>()
  for (const { at } of visits.slice(0, 1_000)) perSlice.set(at, (perSlice.get(at) ?? 0) + 1)
  // 20 slices of 50 ideally; a late timer makes the remaining slices larger, never the whole pass one slice.
  expect(perSlice.size).toBeGreaterThan(5)
  expect(Math.max(...perSlice.values())).toBeLessThan(500)
})

test('behavior: items added during a pass are visited, removed ones are not', async () => {
  const items = new Set(Array.from({ length: 100 }, (_, i) => i))
  const visits = sweep(items, 100, 10)
  await waitFor(() => visits.length > 0, { message: 'the first slice' })
  items.delete(99)
  items.add(100)
  await waitFor(() => visits.some((v) => v.item === 100), { message: 'the added item' })
  expect(visits.some((v) => v.item === 99)).toBe(false)
})
