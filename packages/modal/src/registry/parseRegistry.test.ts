import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { RegistryError } from '../errors.js'
import { filterWallets, parseRegistry } from './parseRegistry.js'

const registry: unknown = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../../../shared/registry/wallets.json'), 'utf8'),
)

describe('parseRegistry', () => {
  test('default', () => {
    const wallets = parseRegistry(registry, 'mobile')
    expect(wallets).toHaveLength(57)
    expect(wallets[0]).toEqual({
      name: 'Rainbow',
      shortName: 'Rainbow',
      color: '#001e59',
      logo: '',
      universalLink: 'https://rnbwapp.com',
      deepLink: 'rainbow:',
    })
  })

  test('args: desktop keeps only wallets with a desktop link', () => {
    expect(parseRegistry(registry, 'desktop').map((wallet) => wallet.name)).toEqual([
      'Crypto.com | DeFi Wallet',
      'Ledger Live',
      'SecuX',
      'Ambire Wallet',
      'Sequence Wallet',
      'Fireblocks',
    ])
  })

  test('behavior: odd entries are skipped or defaulted, not fatal', () => {
    const listings = {
      a: { name: 'NoMeta', mobile: { native: 'nometa:' } },
      b: { name: '', mobile: { native: 'x:' } },
      c: null,
      d: { name: 'NoLinks', mobile: { native: null, universal: '' } },
    }
    expect(parseRegistry({ listings, count: 4 }, 'mobile')).toEqual([
      { name: 'NoMeta', shortName: '', color: '', logo: '', universalLink: '', deepLink: 'nometa:' },
    ])
  })

  test('behavior: script-running links from a registry are dropped', () => {
    const listings = {
      a: { name: 'Evil', mobile: { universal: 'javascript:alert(1)//', native: ' JavaScript:alert(1)' } },
      b: { name: 'Data', mobile: { universal: 'data:text/html,x', native: 'data:text/html,x' } },
    }
    expect(parseRegistry({ listings }, 'mobile')).toEqual([])
  })

  test('behavior: the icon is image_url.sm when it is an http(s) address, else none', () => {
    const entry = (sm: unknown) => ({ name: 'W', mobile: { native: 'w:' }, image_url: { sm } })
    const listings = {
      a: entry('https://registry.test/icons/a.svg'),
      b: entry('javascript:alert(1)'),
      c: entry('data:image/svg+xml,<svg/>'),
      d: entry(''),
      e: entry(42),
    }
    expect(parseRegistry({ listings }, 'mobile').map((wallet) => wallet.logo)).toEqual([
      'https://registry.test/icons/a.svg',
      '',
      '',
      '',
      '',
    ])
  })

  test.each([null, [], 'text', { wallets: [] }, { listings: 'no' }])('error: malformed %j', (data) => {
    expect(() => parseRegistry(data, 'mobile')).toThrowError(RegistryError)
  })
})

describe('filterWallets', () => {
  const wallets = parseRegistry(registry, 'mobile')

  test('default', () => {
    expect(filterWallets(wallets)).toHaveLength(57)
  })

  test('args: allow-list — order of the list, substring, case-insensitive, misses dropped', () => {
    expect(filterWallets(wallets, ['METAMASK', 'rain', 'nope']).map((wallet) => wallet.name)).toEqual([
      'MetaMask',
      'Rainbow',
    ])
  })

  test('args: empty allow-list', () => {
    expect(filterWallets(wallets, [])).toEqual([])
  })
})
