import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { announce, fakeProvider, setLegacy, stopAnnouncing } from '../../test/injected.js'

// Discovery lives for the page's lifetime (EIP-6963), so each test loads a fresh copy of the module, as a new page.
const load = async () => {
  vi.resetModules()
  return await import('./injectedWallets.js')
}
const rdnsOf = (wallets: readonly { info: { rdns: string } }[]) => wallets.map(({ info }) => info.rdns)

beforeEach(() => localStorage.clear())
afterEach(() => {
  stopAnnouncing()
  setLegacy(undefined)
})

describe('getInjectedWallets', () => {
  test('default: the wallets that announce themselves, in their order, with their own info and provider', async () => {
    const first = announce({ rdns: 'com.example.first', name: 'First Wallet' })
    const second = announce({ rdns: 'com.example.second', name: 'Second Wallet' })
    const { getInjectedWallets } = await load()
    const wallets = getInjectedWallets()
    expect(wallets).toEqual([first, second])
    expect(wallets[0]?.provider).toBe(first.provider)
  })

  test('behavior: one entry per rdns, the first to claim it (a re-announcement or an imitation is dropped)', async () => {
    const real = announce({ rdns: 'io.metamask', name: 'MetaMask' })
    announce({ rdns: 'io.metamask', name: 'Not MetaMask' })
    const { getInjectedWallets, watchInjectedWallets } = await load()
    const onChange = vi.fn()
    watchInjectedWallets(onChange)
    // Every wallet answers a new request with the same announcement.
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(getInjectedWallets()).toEqual([real])
    expect(onChange).not.toHaveBeenCalled()
  })

  test('behavior: a wallet announcing itself late is added and watchers hear of it; unwatching stops that', async () => {
    const { getInjectedWallets, watchInjectedWallets } = await load()
    expect(getInjectedWallets()).toEqual([])
    const onChange = vi.fn()
    const unwatch = watchInjectedWallets(onChange)
    const late = announce({ rdns: 'com.example.late' })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(onChange).toHaveBeenLastCalledWith([late])
    expect(getInjectedWallets()).toEqual([late])
    unwatch()
    announce({ rdns: 'com.example.later' })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(rdnsOf(getInjectedWallets())).toEqual(['com.example.late', 'com.example.later'])
  })

  test('behavior: announcements without an rdns, a name or a provider are ignored', async () => {
    const { getInjectedWallets } = await load()
    const send = (detail: unknown) =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    send(undefined)
    send({ info: { rdns: 'com.example.a', name: 'A' } })
    send({ info: { rdns: '', name: 'B' }, provider: fakeProvider() })
    send({ info: { rdns: 'com.example.c', name: '' }, provider: fakeProvider() })
    send({ info: { rdns: 'com.example.d', name: { toString: () => 'D' } }, provider: fakeProvider() })
    send({ provider: fakeProvider() })
    expect(getInjectedWallets()).toEqual([])
  })

  test('behavior: with none announced, the legacy window.ethereum, named from its flags', async () => {
    const { getInjectedWallets } = await load()
    const { LEGACY_RDNS } = await import('./readLegacyWallet.js')
    setLegacy({ ...fakeProvider(), isMetaMask: true })
    expect(getInjectedWallets().map(({ info }) => info)).toEqual([
      { uuid: LEGACY_RDNS, name: 'MetaMask', icon: '', rdns: 'window.ethereum' },
    ])
    // Brave also says it is MetaMask, so dapps written for MetaMask take it: its own flag wins.
    setLegacy({ ...fakeProvider(), isMetaMask: true, isBraveWallet: true })
    expect(getInjectedWallets()[0]?.info.name).toBe('Brave Wallet')
    const unknown = { ...fakeProvider() }
    setLegacy(unknown)
    expect(getInjectedWallets()[0]).toMatchObject({ info: { name: 'Browser wallet' }, provider: unknown })
  })

  test('behavior: the legacy window.ethereum goes as soon as a wallet announces itself', async () => {
    setLegacy({ ...fakeProvider(), isMetaMask: true })
    const { getInjectedWallets, watchInjectedWallets } = await load()
    expect(rdnsOf(getInjectedWallets())).toEqual(['window.ethereum'])
    const onChange = vi.fn()
    watchInjectedWallets(onChange)
    const announced = announce({ rdns: 'io.metamask', name: 'MetaMask' })
    expect(onChange).toHaveBeenLastCalledWith([announced])
  })

  test('behavior: nothing announced and no window.ethereum is an empty list', async () => {
    setLegacy({ notAProvider: true } as never)
    const { getInjectedWallets } = await load()
    expect(getInjectedWallets()).toEqual([])
  })

  test('behavior: the last wallet chosen comes first, also on the next page load', async () => {
    announce({ rdns: 'com.example.first' })
    announce({ rdns: 'com.example.second' })
    announce({ rdns: 'com.example.third' })
    const first = await load()
    const onChange = vi.fn()
    first.watchInjectedWallets(onChange)
    first.saveInjectedChoice('com.example.third')
    const reordered = ['com.example.third', 'com.example.first', 'com.example.second']
    expect(rdnsOf(first.getInjectedWallets())).toEqual(reordered)
    expect(rdnsOf(onChange.mock.lastCall?.[0])).toEqual(reordered)
    expect(rdnsOf((await load()).getInjectedWallets())).toEqual(reordered)
    // A remembered wallet that is not on the page changes nothing.
    first.saveInjectedChoice('com.example.gone')
    expect(rdnsOf(first.getInjectedWallets())).toEqual([
      'com.example.first',
      'com.example.second',
      'com.example.third',
    ])
  })

  test('behavior: the same array until something changes (a useSyncExternalStore snapshot)', async () => {
    announce({ rdns: 'com.example.first' })
    const { getInjectedWallets, saveInjectedChoice } = await load()
    const before = getInjectedWallets()
    expect(getInjectedWallets()).toBe(before)
    saveInjectedChoice('com.example.first')
    expect(getInjectedWallets()).toBe(before)
    announce({ rdns: 'com.example.second' })
    expect(getInjectedWallets()).not.toBe(before)
  })

  test('behavior: storage that throws (private mode) loses only the remembered order', async () => {
    announce({ rdns: 'com.example.first' })
    announce({ rdns: 'com.example.second' })
    const { getInjectedWallets, saveInjectedChoice } = await load()
    vi.spyOn(localStorage, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    vi.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    expect(() => saveInjectedChoice('com.example.second')).not.toThrow()
    expect(rdnsOf(getInjectedWallets())).toEqual(['com.example.first', 'com.example.second'])
    vi.restoreAllMocks()
  })
})
