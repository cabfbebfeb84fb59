import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { type CacaoPayload, formatCacaoMessage } from './cacao.js'
import { SiweMessageError } from './errors.js'
import { parseSiweMessage } from './parseSiweMessage.js'

// The published SDK's own formatting (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it): the text a
// wallet built on it signs for a CACAO, and its ReCaps.
const fromSignClient = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))
const sdk = fromSignClient('@walletconnect/utils') as {
  formatMessage(payload: CacaoPayload, iss: string): string
  createEncodedRecap(resource: string, ability: string, actions: string[]): string
  mergeEncodedRecaps(a: string, b: string): string
}

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const base: CacaoPayload = {
  iss: `did:pkh:eip155:1:${ADDRESS}`,
  domain: 'pairlink.example',
  aud: 'https://pairlink.example/login',
  version: '1',
  nonce: 'a1b2c3d4e5f6g7h8',
  iat: '2026-11-28T10:00:00.000Z',
}
const recap = (...methods: string[]) => sdk.createEncodedRecap('eip155', 'request', methods)

describe('formatCacaoMessage', () => {
  test.each<[string, Partial<CacaoPayload>]>([
    ['a statement and one ReCap', { statement: 'Sign in to Pairlink', resources: [recap('personal_sign')] }],
    [
      'several methods, out of order, after another resource',
      {
        statement: 'Sign in',
        resources: [
          'https://pairlink.example/terms',
          recap('eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4'),
        ],
      },
    ],
    ['a ReCap and no statement', { resources: [recap('personal_sign', 'eth_sign')] }],
    [
      'two resources in one ReCap, every optional field',
      {
        statement: 'Welcome',
        exp: '2026-11-28T11:00:00.000Z',
        nbf: '2026-11-28T09:59:00.000Z',
        requestId: 'req-7',
        resources: [
          sdk.mergeEncodedRecaps(
            recap('personal_sign'),
            sdk.createEncodedRecap('https://pairlink.example', 'crud', ['read', 'update']),
          ),
        ],
      },
    ],
    ['another chain, no resources', { iss: `did:pkh:eip155:137:${ADDRESS}`, statement: 'Hello' }],
  ])('default: the text the SDK signs, byte for byte (%s)', (_, fields) => {
    const payload = { ...base, ...fields }
    const text = formatCacaoMessage(payload)
    expect(text).toBe(sdk.formatMessage(payload, payload.iss))
    // And a well-formed EIP-4361 message (the server then checks it like any other sign-in).
    expect(parseSiweMessage(text).address).toBe(ADDRESS)
  })

  test('error: an iss that is not an eip155 did:pkh, a ReCap that does not decode, a statement over two lines', () => {
    for (const payload of [
      { ...base, iss: 'did:pkh:solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:abc' },
      { ...base, iss: ADDRESS },
      { ...base, resources: ['urn:recap:not-base64-json'] },
      { ...base, resources: [`urn:recap:${Buffer.from('{"att":{}}').toString('base64')}`] },
      { ...base, statement: 'line one\nURI: https://evil.example' },
    ])
      expect(() => formatCacaoMessage(payload)).toThrow(SiweMessageError)
  })
})
