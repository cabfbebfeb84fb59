import { describe, expect, test } from 'vitest'
import { checkProposal } from './checkProposal.js'

const supported = new Set([31337, 1, 10])
const check = (requiredNamespaces: Parameters<typeof checkProposal>[0]['requiredNamespaces']) =>
  checkProposal({ requiredNamespaces }, supported)

describe('checkProposal', () => {
  test('default: nothing required, or only what the wallet gives → no refusal', () => {
    expect(check({})).toBeUndefined()
    expect(
      check({
        eip155: { chains: ['eip155:1', 'eip155:10'], methods: ['personal_sign'], events: ['chainChanged'] },
      }),
    ).toBeUndefined()
    expect(check({ 'eip155:31337': { methods: ['eth_sendTransaction'], events: [] } })).toBeUndefined()
  })

  test('behavior: each lack is refused with the spec error naming it, and the reason in words', () => {
    expect(
      check({ eip155: { chains: ['eip155:1', 'eip155:999', 'eip155:5'], methods: [], events: [] } }),
    ).toEqual({
      error: { code: 5100, message: 'Unsupported chains. eip155:999, eip155:5' },
      reason: 'it requires the chains eip155:999, eip155:5, which this wallet does not support',
    })
    expect(check({ 'eip155:999': { methods: [], events: [] } })?.error).toEqual({
      code: 5100,
      message: 'Unsupported chains. eip155:999',
    })
    expect(check({ eip155: { chains: ['eip155:1'], methods: ['eth_decrypt'], events: [] } })).toEqual({
      error: { code: 5101, message: 'Unsupported methods. eth_decrypt' },
      reason: 'it requires the method eth_decrypt, which this wallet does not implement',
    })
    expect(check({ eip155: { chains: ['eip155:1'], methods: [], events: ['message'] } })).toEqual({
      error: { code: 5102, message: 'Unsupported events. message' },
      reason: 'it requires the event message, which this wallet does not emit',
    })
    expect(check({ solana: { chains: ['solana:mainnet'], methods: [], events: [] } })).toEqual({
      error: { code: 5104, message: 'Unsupported namespace key. solana' },
      reason: 'it requires the solana namespace, and this wallet has EVM (eip155) accounts only',
    })
  })
})
