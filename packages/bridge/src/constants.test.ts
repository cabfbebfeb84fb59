import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { BRIDGE_VERSION, DEFAULT_MAX_FRAME_BYTES, DEFAULT_PING_INTERVAL_MS } from './constants.js'

test('default', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  expect(BRIDGE_VERSION).toBe(pkg.version)
})

test('behavior: pings at most every 10 s, as v1 bridges did (reference §3.3)', () => {
  expect(DEFAULT_PING_INTERVAL_MS).toBeLessThanOrEqual(10_000)
})

test('behavior: the frame limit leaves room for a large signing request', () => {
  expect(DEFAULT_MAX_FRAME_BYTES).toBeGreaterThanOrEqual(512 * 1024)
})
