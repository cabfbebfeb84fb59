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

  test('error: a missing or mistyped field', () => {
    expect(() => parseConfig(null)).toThrow('incomplete configuration')
    expect(() => parseConfig({ ...config, chainId: '31337' })).toThrow('incomplete configuration')
  })
})
