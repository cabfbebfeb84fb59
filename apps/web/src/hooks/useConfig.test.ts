import { describe, expect, test } from 'vitest'
import { parseConfig } from './useConfig.js'

describe('parseConfig', () => {
  const config = {
    bridge: 'http://x',
    rpcUrl: 'http://x/rpc',
    chainId: 31337,
    registryUrl: 'http://x/r.json',
  }

  test('default: keeps the four fields, drops the rest', () => {
    expect(parseConfig({ ...config, extra: 1 })).toEqual(config)
  })

  test('args: the v2 relay URL and project id are kept when they are strings', () => {
    const v2 = { ...config, relayUrl: 'ws://x', projectId: 'p' }
    expect(parseConfig(v2)).toEqual(v2)
    expect(parseConfig({ ...config, relayUrl: 1, projectId: null })).toEqual(config)
  })

  test('error: a missing or mistyped field', () => {
    expect(() => parseConfig(null)).toThrow('incomplete configuration')
    expect(() => parseConfig({ ...config, chainId: '31337' })).toThrow('incomplete configuration')
  })
})
