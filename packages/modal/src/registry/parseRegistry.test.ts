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
      rdns: '',
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
      {
        name: 'NoMeta',
        shortName: '',
        color: '',
        logo: '',
        universalLink: '',
        deepLink: 'nometa:',
        rdns: '',
      },
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

  test('behavior: the extended listing — rdns, and the store links do not count as links', () => {
    const listings = {
      metamask: {
        id: 'metamask',
        name: 'MetaMask',
        rdns: 'io.metamask',
        mobile: { native: 'metamask:', universal: 'https://metamask.app.link' },
        desktop: { native: null, universal: null },
        app: { ios: 'https://apps.apple.com/app/id1438144202', chrome: 'https://chrome.google.com/webstore' },
        image_url: { sm: 'https://pairlink.test/registry/logos/metamask.png' },
      },
      store: { name: 'StoreOnly', rdns: null, app: { ios: 'https://apps.apple.com/x' } },
    }
    expect(parseRegistry({ count: 2, listings }, 'mobile')).toEqual([
      {
        name: 'MetaMask',
        shortName: '',
        color: '',
        logo: 'https://pairlink.test/registry/logos/metamask.png',
        universalLink: 'https://metamask.app.link',
        deepLink: 'metamask:',
        rdns: 'io.metamask',
      },
    ])
    expect(parseRegistry({ listings }, 'desktop')).toEqual([])
  })

  describe("WalletConnect's explorer { data }", () => {
    const explorer = { url: 'https://explorer.test', projectId: 'p' }
    const wallet = (fields: object) => ({ id: 'id', name: 'W', image_id: 'img', rdns: null, ...fields })

    test('default: mobile_link http(s) is the universal link, else the native scheme; desktop_link likewise', () => {
      const data = [
        wallet({ name: 'MetaMask', rdns: 'io.metamask', mobile_link: 'metamask://', desktop_link: null }),
        wallet({ name: 'Rainbow', mobile_link: 'https://rnbwapp.com', desktop_link: 'rainbow://' }),
        wallet({ name: 'NoLinks', mobile_link: null, desktop_link: '' }),
      ]
      expect(parseRegistry({ count: 3, data }, 'mobile', explorer)).toEqual([
        {
          name: 'MetaMask',
          shortName: '',
          color: '',
          logo: 'https://explorer.test/getWalletImage/img?projectId=p&st=pairlink&sv=pairlink-modal-0.1.0',
          universalLink: '',
          deepLink: 'metamask://',
          rdns: 'io.metamask',
        },
        expect.objectContaining({
          name: 'Rainbow',
          universalLink: 'https://rnbwapp.com',
          deepLink: '',
          rdns: '',
        }),
      ])
      expect(parseRegistry({ data }, 'desktop', explorer).map((w) => [w.name, w.deepLink])).toEqual([
        ['Rainbow', 'rainbow://'],
      ])
    })

    test('behavior: image_url when the explorer gives one over http(s), else the image_id; without explorer none', () => {
      const data = [
        wallet({ mobile_link: 'w://', image_url: 'https://cdn.test/w.png' }),
        wallet({ mobile_link: 'w://', image_url: 'javascript:alert(1)' }),
        wallet({ mobile_link: 'w://', image_url: { sm: 'https://cdn.test/sm.png' } }),
      ]
      expect(parseRegistry({ data }, 'mobile', explorer).map((w) => w.logo)).toEqual([
        'https://cdn.test/w.png',
        'https://explorer.test/getWalletImage/img?projectId=p&st=pairlink&sv=pairlink-modal-0.1.0',
        'https://cdn.test/sm.png',
      ])
      expect(parseRegistry({ data: [wallet({ mobile_link: 'w://' })] }, 'mobile')[0]?.logo).toBe('')
    })

    test('behavior: script-running links and odd entries are dropped', () => {
      const data = [
        wallet({ name: 'Evil', mobile_link: ' javascript:alert(1)' }),
        wallet({ name: 'Data', mobile_link: 'data:text/html,x' }),
        wallet({ name: '', mobile_link: 'x://' }),
        null,
        'text',
      ]
      expect(parseRegistry({ data }, 'mobile', explorer)).toEqual([])
    })
  })

  test.each([null, [], 'text', { wallets: [] }, { listings: 'no' }, { data: 'no' }])(
    'error: malformed %j',
    (data) => {
      expect(() => parseRegistry(data, 'mobile')).toThrowError(RegistryError)
    },
  )
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
