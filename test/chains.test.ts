import { describe, expect, test } from 'vitest'
import { getChainOptions, formatChain as walletChain } from '../apps/wallet/src/core/chains.js'
import { listChains, formatChain as webChain } from '../apps/web/src/format.js'

// The two sides of one session name a chain alike: the person compares what the dapp and the wallet say.
describe('the wallet names chains as the web app does', () => {
  const ids = [...new Set([...listChains(31337), ...getChainOptions(31337), 5, 1337, 424242])]

  test('precondition: both know the dev chain and a few public ones', () => {
    expect(ids).toEqual(expect.arrayContaining([1, 31337, 11155111]))
    expect(webChain(31337)).toBe('Anvil dev chain (31337)')
  })

  test.each(ids)('chain %i', (id) => {
    expect(walletChain(id)).toBe(webChain(id))
  })

  test('behavior: the wallet offers the chains the web app offers', () => {
    expect(new Set(getChainOptions(31337))).toEqual(new Set(listChains(31337)))
  })
})
