import { expect, test, vi } from 'vitest'
import * as wagmi from './index.js'

test('exports', () => {
  expect(Object.keys(wagmi).sort()).toMatchInlineSnapshot(`
    [
      "InjectedWalletChosenError",
      "pairlink",
    ]
  `)
})

test('behavior: importing and creating the connector touches no window (server renders, Node)', async () => {
  let reads = 0
  Object.defineProperty(globalThis, 'window', {
    configurable: true,
    get() {
      reads++
      return undefined
    },
  })
  try {
    // Evaluated anew with the trap in place: the connector's module, @wagmi/core's and viem's.
    vi.resetModules()
    const fresh: typeof wagmi = await import('./index.js')
    const create = fresh.pairlink({ relayUrl: 'ws://127.0.0.1:1' })
    // What wagmi's createConfig does with a connector function, before any connect.
    const connector = create({
      chains: [
        {
          id: 1,
          name: 'one',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [] } },
        },
      ],
      emitter: { emit() {}, on() {}, off() {}, once() {}, listenerCount: () => 0, uid: 'x' } as never,
      providers: [],
    })
    expect(connector).toMatchObject({ id: 'pairlink', name: 'Pairlink', type: 'pairlink' })
    expect(reads).toBe(0)
  } finally {
    Reflect.deleteProperty(globalThis, 'window')
  }
})
