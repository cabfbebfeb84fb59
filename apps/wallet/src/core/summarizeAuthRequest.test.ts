import { createRequire } from 'node:module'
import { SDK_ERRORS } from '@pairlink/client/v2'
import type { AuthPayload } from '@pairlink/protocol/v2'
import { describe, expect, test } from 'vitest'
import { getDevAccount } from './accounts.js'
import { summarizeAuthRequest } from './summarizeAuthRequest.js'

// The published SDK's ReCaps and SIWE text (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it).
const sdk = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
  '@walletconnect/utils',
) as {
  formatMessage(payload: Record<string, unknown>, iss: string): string
  createEncodedRecap(resource: string, ability: string, actions: string[]): string
  getMethodsFromRecap(recap: string): string[]
}

const address = getDevAccount(0).address
const supportedChains = new Set([31337, 1, 10])
const ask = (payload: Partial<AuthPayload> = {}) => ({
  authPayload: {
    type: 'caip122' as const,
    chains: ['eip155:31337', 'eip155:1'],
    domain: 'dapp.test',
    aud: 'https://dapp.test/login',
    version: '1' as const,
    nonce: 'n0nce1234567',
    iat: '2026-11-28T10:00:00.000Z',
    statement: 'Sign in to the dapp',
    resources: [sdk.createEncodedRecap('eip155', 'request', ['personal_sign', 'eth_sendTransaction'])],
    ...payload,
  },
  expiryTimestamp: Math.floor(Date.now() / 1000) + 3600,
})

describe('summarizeAuthRequest', () => {
  test('default: chains, methods, and the text signed per chain as the SDK writes it', () => {
    const { summary, error } = summarizeAuthRequest(ask(), { supportedChains, address })
    expect(error).toBeUndefined()
    expect(summary).toMatchObject({
      domain: 'dapp.test',
      aud: 'https://dapp.test/login',
      chains: ['eip155:31337', 'eip155:1'],
      evmChains: [31337, 1],
      methods: ['eth_sendTransaction', 'personal_sign'],
      grantedMethods: ['eth_sendTransaction', 'personal_sign'],
    })
    expect(summary.refused).toBeUndefined()
    expect(summary.messages.map((m) => m.chainId)).toEqual([31337, 1])
    for (const { chainId, text } of summary.messages) {
      const iss = `did:pkh:eip155:${chainId}:${address}`
      expect(text).toBe(sdk.formatMessage({ ...summary.payload, iss }, iss))
    }
    expect(summary.messages[0]?.text).toBe(
      [
        'dapp.test wants you to sign in with your Ethereum account:',
        address,
        '',
        "Sign in to the dapp I further authorize the stated URI to perform the following actions on my behalf: (1) 'request': 'eth_sendTransaction', 'personal_sign' for 'eip155'.",
        '',
        'URI: https://dapp.test/login',
        'Version: 1',
        'Chain ID: 31337',
        'Nonce: n0nce1234567',
        'Issued At: 2026-11-28T10:00:00.000Z',
        'Resources:',
        `- ${summary.payload.resources?.[0]}`,
      ].join('\n'),
    )
  })

  test('behavior: methods this wallet does not implement are left out of the ReCap it signs', () => {
    const resources = [
      'https://dapp.test/terms',
      sdk.createEncodedRecap('eip155', 'request', [
        'personal_sign',
        'wallet_getCallsStatus',
        'eth_signTypedData_v4',
      ]),
    ]
    const { summary } = summarizeAuthRequest(ask({ resources }), { supportedChains, address })
    expect(summary.methods).toEqual(['eth_signTypedData_v4', 'personal_sign', 'wallet_getCallsStatus'])
    expect(summary.grantedMethods).toEqual(['eth_signTypedData_v4', 'personal_sign'])
    const signed = summary.payload.resources ?? []
    expect(signed[0]).toBe('https://dapp.test/terms')
    expect(sdk.getMethodsFromRecap(signed[1] as string)).toEqual(['eth_signTypedData_v4', 'personal_sign'])
    expect(summary.messages[0]?.text).toContain("'eth_signTypedData_v4', 'personal_sign' for 'eip155'.")
    expect(summary.messages[0]?.text).not.toContain('wallet_getCallsStatus')
  })

  test('behavior: only the chains this wallet supports are signed for', () => {
    const { summary } = summarizeAuthRequest(ask({ chains: ['eip155:999', 'solana:abc', 'eip155:10'] }), {
      supportedChains,
      address,
    })
    expect(summary.evmChains).toEqual([10])
    expect(summary.payload.chains).toEqual(['eip155:10'])
    expect(summary.messages.map((m) => m.chainId)).toEqual([10])
  })

  test('behavior: a sign-in without a ReCap asks for no method and keeps its resources', () => {
    const { summary } = summarizeAuthRequest(ask({ resources: ['https://dapp.test/terms'] }), {
      supportedChains,
      address,
    })
    expect(summary.methods).toEqual([])
    expect(summary.payload.resources).toEqual(['https://dapp.test/terms'])
    expect(summary.messages[0]?.text).toContain('\n\nSign in to the dapp\n\n')
  })

  test('error: no chain this wallet supports → 5100 naming them', () => {
    const { summary, error } = summarizeAuthRequest(ask({ chains: ['eip155:999'] }), {
      supportedChains,
      address,
    })
    expect(error).toEqual({
      code: SDK_ERRORS.UNSUPPORTED_CHAINS.code,
      message: 'Unsupported chains. eip155:999',
    })
    expect(summary.refused).toBe('it asks only for chain eip155:999, which this wallet does not support')
    expect(summary.messages).toEqual([])
  })

  test('error: methods asked and none implemented → 5101 naming them', () => {
    const resources = [sdk.createEncodedRecap('eip155', 'request', ['wallet_sendCalls'])]
    const { summary, error } = summarizeAuthRequest(ask({ resources }), { supportedChains, address })
    expect(error).toEqual({ code: 5101, message: 'Unsupported methods. wallet_sendCalls' })
    expect(summary.refused).toBe(
      'it asks only for method wallet_sendCalls, which this wallet does not implement',
    )
  })
})
