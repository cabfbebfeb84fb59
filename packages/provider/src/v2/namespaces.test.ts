import type { Session } from '@pairlink/client/v2'
import { SessionError } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { accountsOn, chainsOf, toChainNumber, toProviderError } from './namespaces.js'

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const session = (namespaces: Session['namespaces']) => ({ namespaces }) as Session

describe('chainsOf / accountsOn', () => {
  test('default: chains from `chains` and the accounts, in order, eip155 only', () => {
    const s = session({
      eip155: {
        chains: ['eip155:10'],
        accounts: [`eip155:1:${A}`, `eip155:10:${A}`, `eip155:1:${B}`],
        methods: [],
        events: [],
      },
      solana: { accounts: ['solana:mainnet:abc'], methods: [], events: [] },
    })
    expect(chainsOf(s)).toEqual([10, 1])
    expect(accountsOn(s, 1)).toEqual([A, B])
    expect(accountsOn(s, 10)).toEqual([A])
    expect(accountsOn(s, 5)).toEqual([])
  })

  test('args: a namespace keyed by its chain (`eip155:137`)', () => {
    expect(chainsOf(session({ 'eip155:137': { accounts: [], methods: [], events: [] } }))).toEqual([137])
  })
})

test('toChainNumber: a number, hex, decimal text or CAIP-2; anything else is undefined', () => {
  expect([10, '0xa', '10', 'eip155:10'].map(toChainNumber)).toEqual([10, 10, 10, 10])
  for (const bad of [0, -1, 'x', '', null, 1.5, 'eip155:'] as unknown[])
    expect(toChainNumber(bad)).toBeUndefined()
})

describe('toProviderError', () => {
  const signError = (code: unknown, message: string) => Object.assign(new Error(message), { code })

  test('behavior: chains and methods outside the session → 4901 / 4200 with the SDK text', () => {
    expect(toProviderError(signError(5100, 'Unsupported chains. eip155:5'))).toMatchObject({
      code: 4901,
      message: 'Unsupported chains. eip155:5',
    })
    expect(toProviderError(signError(5101, 'Unsupported methods. eth_x'))).toMatchObject({ code: 4200 })
  })

  test('behavior: a session that ended while waiting → v1 SessionError', () => {
    const ended = toProviderError(signError(6000, 'User disconnected.'))
    expect(ended).toBeInstanceOf(SessionError)
    expect(ended).toMatchObject({ message: 'Session currently disconnected' })
  })

  test('behavior: a wallet code is kept; others pass through', () => {
    expect(toProviderError(signError(5000, 'User rejected.'))).toMatchObject({
      code: 5000,
      message: 'User rejected.',
    })
    const expired = signError('ERR_REQUEST_EXPIRED', 'Request expired. Please try again.')
    expect(toProviderError(expired)).toBe(expired)
    expect(toProviderError('odd')).toBe('odd')
  })
})
