import { describe, expect, test } from 'vitest'
import { getRelayUrl } from '../cli/parseCliArgs.js'
import { buildNamespaces, getSessionChains, summarizeProposal, WALLET_METHODS } from './namespaces.js'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

describe('summarizeProposal', () => {
  test('default: optional namespaces only, as the 2.2x SDK sends them', () => {
    const summary = summarizeProposal({
      requiredNamespaces: {},
      optionalNamespaces: {
        eip155: {
          chains: ['eip155:1', 'eip155:31337'],
          methods: ['personal_sign'],
          events: ['chainChanged'],
        },
      },
    })
    expect(summary).toEqual({
      chains: ['eip155:1', 'eip155:31337'],
      evmChains: [1, 31337],
      methods: ['personal_sign'],
      events: ['chainChanged'],
    })
  })

  test('behavior: required and optional merged, required first; a chain as key; other namespaces listed, not EVM', () => {
    const summary = summarizeProposal({
      requiredNamespaces: { 'eip155:10': { methods: ['eth_sendTransaction'], events: [] } },
      optionalNamespaces: {
        eip155: {
          chains: ['eip155:10', 'eip155:1'],
          methods: ['personal_sign'],
          events: ['accountsChanged'],
        },
        solana: {
          chains: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
          methods: ['solana_signMessage'],
          events: [],
        },
      },
    })
    expect(summary.chains).toEqual(['eip155:10', 'eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'])
    expect(summary.evmChains).toEqual([10, 1])
    expect(summary.methods).toEqual(['eth_sendTransaction', 'personal_sign', 'solana_signMessage'])
    expect(summary.events).toEqual(['accountsChanged'])
  })
})

describe('buildNamespaces', () => {
  test('default: the chains in order, once, the account on each, the wallet methods and events', () => {
    expect(buildNamespaces({ chains: [31337, 1, 31337], address })).toEqual({
      eip155: {
        chains: ['eip155:31337', 'eip155:1'],
        accounts: [`eip155:31337:${address}`, `eip155:1:${address}`],
        methods: [...WALLET_METHODS],
        events: ['chainChanged', 'accountsChanged'],
      },
    })
    expect(WALLET_METHODS).toEqual(
      expect.arrayContaining([
        'personal_sign',
        'eth_signTypedData_v4',
        'eth_sendTransaction',
        'wallet_switchEthereumChain',
      ]),
    )
  })

  test('behavior: getSessionChains reads them back, from accounts when chains are left out', () => {
    expect(getSessionChains(buildNamespaces({ chains: [1, 10], address }))).toEqual([1, 10])
    const accountsOnly = { eip155: { accounts: [`eip155:5:${address}`], methods: [], events: [] } }
    expect(getSessionChains(accountsOnly)).toEqual([5])
  })
})

describe('getRelayUrl', () => {
  test('default: the RPC server, in its WebSocket scheme, on its port', () => {
    expect(getRelayUrl('http://127.0.0.1:8080/rpc')).toBe('ws://127.0.0.1:8080')
    expect(getRelayUrl('https://pairlink.example/rpc')).toBe('wss://pairlink.example')
  })
})
