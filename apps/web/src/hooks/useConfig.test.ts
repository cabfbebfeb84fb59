import { describe, expect, test } from 'vitest'
import { parseConfig } from './useConfig.js'

describe('parseConfig', () => {
  const config = {
    bridge: 'http://x',
    rpcUrl: 'http://x/rpc',
    chainId: 31337,
    registryUrl: 'http://x/r.json',
  }

  const own = { ...config, relayNetwork: 'pairlink' }

  test('default: keeps the four fields, drops the rest; a server that names no relay network is its own relay', () => {
    expect(parseConfig({ ...config, extra: 1 })).toEqual(own)
  })

  test('args: the v2 relay URL and project id are kept when they are strings', () => {
    const v2 = { ...config, relayUrl: 'ws://x', projectId: 'p', relayNetwork: 'pairlink' }
    expect(parseConfig(v2)).toEqual(v2)
    expect(parseConfig({ ...config, relayUrl: 1, projectId: null })).toEqual(own)
  })

  test("args: relayNetwork 'walletconnect' — WalletConnect's network; anything else is this server's relay", () => {
    const wc = {
      ...config,
      relayUrl: 'wss://relay.walletconnect.org',
      projectId: 'c0ffee254729296a45a3885639ac7e10',
      relayNetwork: 'walletconnect',
    }
    expect(parseConfig(wc)).toEqual(wc)
    expect(parseConfig({ ...wc, relayNetwork: 'other' }).relayNetwork).toBe('pairlink')
  })

  test('error: a missing or mistyped field', () => {
    expect(() => parseConfig(null)).toThrow('incomplete configuration')
    expect(() => parseConfig({ ...config, chainId: '31337' })).toThrow('incomplete configuration')
  })
})
