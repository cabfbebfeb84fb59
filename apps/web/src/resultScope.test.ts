import { expect, test } from 'vitest'
import { resultScope } from './resultScope.js'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

test('behavior: another account or another chain is another scope; the same session keeps its scope', () => {
  const scope = resultScope({ address, chainId: 31337 })
  expect(resultScope({ address, chainId: 31337 })).toBe(scope)
  expect(resultScope({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 31337 })).not.toBe(
    scope,
  )
  expect(resultScope({ address, chainId: 1 })).not.toBe(scope)
  expect(resultScope(undefined)).toBe('')
})
