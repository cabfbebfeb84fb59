import { describe, expect, test } from 'vitest'
import { RegistryError } from '../errors.js'
import { fetchRegistry } from './fetchRegistry.js'

const respond = (body: string, status = 200) => (async () => new Response(body, { status })) as typeof fetch
const listings = JSON.stringify({ listings: { a: { name: 'A', mobile: { native: 'a:' } } }, count: 1 })

describe('fetchRegistry', () => {
  test('default', async () => {
    const urls: string[] = []
    const wallets = await fetchRegistry({
      url: '/registry/wallets.json',
      side: 'mobile',
      fetch: (async (url: string) => {
        urls.push(url)
        return new Response(listings)
      }) as typeof fetch,
    })
    expect(urls).toEqual(['/registry/wallets.json'])
    expect(wallets.map((wallet) => wallet.name)).toEqual(['A'])
  })

  test('args: explorer — an explorer answer gets its logos from the explorer', async () => {
    const body = JSON.stringify({ count: 1, data: [{ name: 'W', mobile_link: 'w://', image_id: 'img-1' }] })
    const [wallet] = await fetchRegistry({
      url: 'https://explorer.test/getWallets?projectId=p',
      side: 'mobile',
      explorer: { url: 'https://explorer.test', projectId: 'p' },
      fetch: respond(body),
    })
    expect(wallet?.logo).toBe(
      'https://explorer.test/getWalletImage/img-1?projectId=p&st=pairlink&sv=pairlink-modal-0.1.0',
    )
  })

  test('error: network failure', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch')
    }) as typeof fetch
    await expect(fetchRegistry({ side: 'mobile', fetch: failing, url: '/r' })).rejects.toMatchObject({
      name: 'RegistryError',
      code: 'ERR_MODAL_REGISTRY',
      details: '/r',
    })
  })

  test('error: HTTP status', async () => {
    await expect(
      fetchRegistry({ url: '/r', side: 'mobile', fetch: respond(listings, 500) }),
    ).rejects.toThrowError(RegistryError)
  })

  test('error: not JSON', async () => {
    await expect(fetchRegistry({ url: '/r', side: 'mobile', fetch: respond('<html>') })).rejects.toThrowError(
      'Wallet registry could not be fetched',
    )
  })

  test('error: wrong shape', async () => {
    await expect(
      fetchRegistry({ url: '/r', side: 'mobile', fetch: respond('{"a":1}') }),
    ).rejects.toThrowError('Wallet registry is malformed')
  })
})
