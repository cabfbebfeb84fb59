import { createRequire } from 'node:module'
import { privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import {
  type AuthPayload,
  buildAuthNamespaces,
  type Cacao,
  type CacaoPayload,
  checkCacaoSignature,
  formatAuthMessage,
  formatCacaoMessage,
} from './cacao.js'
import { InvalidCacaoError } from './errors.js'
import {
  createRecap,
  describeRecap,
  getRecapChains,
  getRecapMethods,
  mergeRecaps,
  readRecap,
} from './recap.js'

// The published SDK's own code (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it): the text a wallet
// built on it signs for a CACAO, its ReCaps, and the namespaces it settles on.
const fromSignClient = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))
const sdk = fromSignClient('@walletconnect/utils') as {
  formatMessage(payload: Omit<CacaoPayload, 'iss'>, iss: string): string
  createEncodedRecap(resource: string, ability: string, actions: string[]): string
  mergeEncodedRecaps(a: string, b: string): string
  getMethodsFromRecap(recap: string): string[]
  getChainsFromRecap(recap: string): string[]
  buildNamespacesFromAuth(methods: string[], accounts: string[]): unknown
  populateAuthPayload(p: { authPayload: AuthPayload; chains: string[]; methods: string[] }): AuthPayload
  validateSignedCacao(p: { cacao: Cacao }): Promise<boolean>
}

// One of anvil's well-known dev keys: real signatures, no secret.
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const ADDRESS = account.address
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
    // And a well-formed EIP-4361 message.
    expect(parseSiweMessage(text).address).toBe(ADDRESS)
  })

  test('error: an iss that is not an eip155 did:pkh, a ReCap that does not decode, a statement over two lines', () => {
    for (const [payload, field] of [
      [{ ...base, iss: 'did:pkh:solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:abc' }, 'iss'],
      [{ ...base, iss: ADDRESS }, 'iss'],
      [{ ...base, resources: ['urn:recap:not-base64-json'] }, 'resources'],
      [{ ...base, resources: [`urn:recap:${Buffer.from('{"att":{}}').toString('base64')}`] }, 'resources'],
      [{ ...base, statement: 'line one\nURI: https://evil.example' }, 'statement'],
    ] as [CacaoPayload, string][]) {
      const error = (() => {
        try {
          formatCacaoMessage(payload)
        } catch (caught) {
          return caught
        }
      })()
      expect(error).toBeInstanceOf(InvalidCacaoError)
      expect(error).toMatchObject({ code: 'ERR_CACAO_INVALID', field, details: field })
    }
  })
})

describe('formatAuthMessage', () => {
  test('default: a request as the SDK wallet narrows it (populateAuthPayload), signed as iss, the SDK’s text', () => {
    const request: AuthPayload = {
      type: 'caip122',
      chains: ['eip155:1', 'eip155:10'],
      ...base,
      version: '1',
      statement: 'Sign in',
      resources: [recap('personal_sign', 'eth_sendTransaction')],
    }
    const narrowed = sdk.populateAuthPayload({
      authPayload: request,
      chains: ['eip155:1'],
      methods: ['personal_sign'],
    })
    const iss = `did:pkh:eip155:1:${ADDRESS}`
    expect(formatAuthMessage({ request: narrowed, iss })).toBe(sdk.formatMessage(narrowed, iss))
    expect(formatAuthMessage({ request, iss })).toBe(sdk.formatMessage(request, iss))
  })
})

describe('ReCaps', () => {
  test('default: created and merged as the SDK does, read back', () => {
    const methods = ['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4']
    expect(createRecap('eip155', 'request', methods)).toBe(
      sdk.createEncodedRecap('eip155', 'request', methods),
    )
    const other = sdk.createEncodedRecap('https://pairlink.example', 'crud', ['read'])
    expect(mergeRecaps(recap('personal_sign'), other)).toBe(
      sdk.mergeEncodedRecaps(recap('personal_sign'), other),
    )
    expect(mergeRecaps(recap('personal_sign'), recap('eth_sign'))).toBe(
      sdk.mergeEncodedRecaps(recap('personal_sign'), recap('eth_sign')),
    )
    const merged = mergeRecaps(recap('personal_sign'), other)
    expect(getRecapMethods(['x', merged])).toEqual(sdk.getMethodsFromRecap(merged))
    expect(describeRecap([merged])).toEqual([
      { namespace: 'eip155', ability: 'request', actions: ['personal_sign'] },
      { namespace: 'https://pairlink.example', ability: 'crud', actions: ['read'] },
    ])
    expect(readRecap(['https://pairlink.example/terms'])).toBeUndefined()
    expect(describeRecap(undefined)).toEqual([])
  })

  test('behavior: a wallet’s narrowed ReCap names chains; namespaces as the SDK builds them', () => {
    const narrowed = sdk.populateAuthPayload({
      authPayload: {
        type: 'caip122',
        chains: ['eip155:1', 'eip155:10'],
        ...base,
        version: '1',
        resources: [recap('personal_sign', 'eth_sign')],
      },
      chains: ['eip155:1', 'eip155:10'],
      methods: ['personal_sign', 'eth_sign'],
    })
    const last = narrowed.resources?.at(-1) as string
    expect(getRecapChains(narrowed.resources)).toEqual(sdk.getChainsFromRecap(last))
    const cacao = { h: { t: 'caip122' }, p: { ...narrowed, iss: base.iss }, s: { t: 'eip191', s: '0x' } }
    const accounts = [`eip155:1:${ADDRESS}`, `eip155:10:${ADDRESS}`]
    expect(buildAuthNamespaces([cacao])).toEqual(
      sdk.buildNamespacesFromAuth(sdk.getMethodsFromRecap(last), accounts),
    )
    expect(buildAuthNamespaces([{ ...cacao, p: base }])).toEqual({
      eip155: {
        chains: ['eip155:1'],
        accounts: [`eip155:1:${ADDRESS}`],
        methods: [],
        events: ['chainChanged', 'accountsChanged'],
      },
    })
  })
})

describe('checkCacaoSignature', () => {
  const payload = { ...base, statement: 'Sign in', resources: [recap('personal_sign')] }
  const signed = async (p: CacaoPayload = payload): Promise<Cacao> => ({
    h: { t: 'caip122' },
    p,
    s: { t: 'eip191', s: await account.signMessage({ message: formatCacaoMessage(p) }) },
  })

  test('default: the iss account’s EIP-191 signature verifies, as the SDK finds', async () => {
    const cacao = await signed()
    expect(checkCacaoSignature(cacao)).toBe(true)
    expect(await sdk.validateSignedCacao({ cacao })).toBe(true)
    // v as 0/1 and an iss address in lower case.
    const v = Number.parseInt(cacao.s.s.slice(-2), 16) - 27
    expect(checkCacaoSignature({ ...cacao, s: { t: 'eip191', s: `${cacao.s.s.slice(0, -2)}0${v}` } })).toBe(
      true,
    )
    const lower = { ...payload, iss: base.iss.toLowerCase() }
    expect(checkCacaoSignature(await signed(lower))).toBe(true)
  })

  test('error: another signer, an altered field, another type, malformed signatures are false', async () => {
    const cacao = await signed()
    const other = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    expect(
      checkCacaoSignature({ ...cacao, p: { ...cacao.p, iss: `did:pkh:eip155:1:${other.address}` } }),
    ).toBe(false)
    expect(checkCacaoSignature({ ...cacao, p: { ...cacao.p, nonce: 'other-nonce' } })).toBe(false)
    expect(checkCacaoSignature({ ...cacao, s: { ...cacao.s, t: 'eip1271' } })).toBe(false)
    for (const s of ['0x', '0x1234', `${cacao.s.s.slice(0, -2)}1d`, `${cacao.s.s}00`, 'zz'])
      expect(checkCacaoSignature({ ...cacao, s: { t: 'eip191', s } })).toBe(false)
    expect(checkCacaoSignature({ ...cacao, p: { ...cacao.p, iss: 'did:pkh:eip155:1:nope' } })).toBe(false)
  })
})
