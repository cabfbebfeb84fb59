import { describe, expect, test } from 'vitest'
import type { AppConfig } from './hooks/useConfig.js'
import { PROTOCOL_STORAGE_KEY, readProtocol, saveProtocol } from './protocolChoice.js'

const config: AppConfig = {
  bridge: 'http://x',
  rpcUrl: 'http://x/rpc',
  chainId: 31337,
  registryUrl: 'http://x/r.json',
  relayUrl: 'ws://x',
  relayNetwork: 'pairlink',
}

const storage = (items: Record<string, string> = {}) => ({
  items,
  getItem: (key: string) => items[key] ?? null,
  setItem: (key: string, value: string) => {
    items[key] = value
  },
})

describe('readProtocol', () => {
  test('default: v2 when the server has a relay and nothing was chosen', () => {
    expect(readProtocol(config, storage())).toBe(2)
  })

  test('behavior: the last choice is kept; saveProtocol stores it', () => {
    const store = storage()
    saveProtocol(1, store)
    expect(store.items[PROTOCOL_STORAGE_KEY]).toBe('1')
    expect(readProtocol(config, store)).toBe(1)
    saveProtocol(2, store)
    expect(readProtocol(config, store)).toBe(2)
  })

  test('behavior: a stored v1 session keeps v1 so that it restores', () => {
    expect(readProtocol(config, storage({ walletconnect: '{"connected":true}' }))).toBe(1)
  })

  test('behavior: v1 only when the server gives no relay URL', () => {
    expect(readProtocol({ ...config, relayUrl: undefined }, storage({ [PROTOCOL_STORAGE_KEY]: '2' }))).toBe(1)
  })

  test('error: storage that throws is treated as empty', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
    }
    expect(readProtocol(config, throwing)).toBe(2)
    expect(() => saveProtocol(1, throwing)).not.toThrow()
  })
})
