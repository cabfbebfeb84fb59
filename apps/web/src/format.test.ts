import { describe, expect, test } from 'vitest'
import { formatBalance, formatChain, listChains, shortenAddress } from './format.js'

describe('formatBalance', () => {
  test('default: groups thousands, at most 4 decimals, rounds down', () => {
    expect(formatBalance(10_000n * 10n ** 18n)).toBe('10,000 ETH')
    expect(formatBalance(9_999_989_999_999_999_999_999n)).toBe('9,999.9899 ETH')
    expect(formatBalance(0n)).toBe('0 ETH')
    expect(formatBalance(10n ** 16n)).toBe('0.01 ETH')
  })

  test('args: digits', () => {
    expect(formatBalance(1_234_567_890_000_000_000n, 2)).toBe('1.23 ETH')
  })
})

describe('formatChain', () => {
  test('default: known chains by name, others by id', () => {
    expect(formatChain(31337)).toBe('Anvil dev chain (31337)')
    expect(formatChain(1)).toBe('Ethereum (1)')
    expect(formatChain(999)).toBe('Chain 999')
  })
})

describe('listChains', () => {
  test('default: the app chain first, no duplicates', () => {
    const chains = listChains(31337)
    expect(chains[0]).toBe(31337)
    expect(new Set(chains).size).toBe(chains.length)
    expect(listChains(5)[0]).toBe(5)
  })
})

describe('shortenAddress', () => {
  test('default', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
    expect(shortenAddress('0x1')).toBe('0x1')
  })
})
