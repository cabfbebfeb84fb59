import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { VERSION } from './version.js'

test('default: VERSION is package.json’s version (bump both together)', () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  expect(VERSION).toBe(version)
})
