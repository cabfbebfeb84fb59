import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { compileContracts } from './compileContracts.js'

test('default: src/contracts.ts is what contracts/*.sol compile to (npm run contracts -w @pairlink/smart-account)', () => {
  const committed = readFileSync(new URL('./contracts.ts', import.meta.url), 'utf8')
  expect(committed).toBe(compileContracts())
})
