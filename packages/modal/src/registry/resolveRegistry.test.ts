import { WALLETCONNECT_EXPLORER_URL } from '@pairlink/protocol/v2'
import { describe, expect, test } from 'vitest'
import { EXPLORER_ENTRIES } from '../constants.js'
import { explorerImageUrl, resolveRegistry } from './resolveRegistry.js'

const projectId = 'c0ffee254729296a45a3885639ac7e10'

describe('resolveRegistry', () => {
  test('default: no registryUrl and no projectId — no list at all, never the retired registry', () => {
    expect(resolveRegistry({})).toBeUndefined()
    expect(resolveRegistry({ explorerUrl: 'https://explorer.test' })).toBeUndefined()
  })

  test('args: registryUrl — as given, with or without a projectId', () => {
    expect(resolveRegistry({ registryUrl: '/registry/wallets.json' })).toEqual({
      url: '/registry/wallets.json',
      explorer: undefined,
    })
    expect(resolveRegistry({ registryUrl: '/registry/wallets.json', projectId })).toEqual({
      url: '/registry/wallets.json',
      explorer: { url: WALLETCONNECT_EXPLORER_URL, projectId },
    })
  })

  test("args: projectId — WalletConnect's explorer, first page", () => {
    const source = resolveRegistry({ projectId })
    const url = new URL(source?.url ?? '')
    expect(`${url.origin}${url.pathname}`).toBe(`${WALLETCONNECT_EXPLORER_URL}/getWallets`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId,
      page: '1',
      entries: String(EXPLORER_ENTRIES),
      st: 'pairlink',
      sv: 'pairlink-modal-0.1.0',
    })
    expect(source?.explorer).toEqual({ url: WALLETCONNECT_EXPLORER_URL, projectId })
  })

  test('args: explorerUrl — another explorer (a stand-in), trailing slash ignored', () => {
    expect(resolveRegistry({ projectId: 'p', explorerUrl: 'https://explorer.test/' })?.url).toMatch(
      /^https:\/\/explorer\.test\/getWallets\?projectId=p&/,
    )
  })

  test('behavior: the logo address of an explorer image', () => {
    expect(explorerImageUrl({ url: 'https://explorer.test', projectId: 'p' }, 'a b')).toBe(
      'https://explorer.test/getWalletImage/a%20b?projectId=p&st=pairlink&sv=pairlink-modal-0.1.0',
    )
  })
})
