import { createRequire } from 'node:module'
import type { AuthPayload } from '@pairlink/protocol/v2'
import { verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import { getDevAccount } from './accounts.js'
import { accountSigner, buildCacaos } from './buildCacaos.js'
import { summarizeAuthRequest } from './summarizeAuthRequest.js'

// The published SDK's checks of a CACAO (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it).
const sdk = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
  '@walletconnect/utils',
) as {
  formatMessage(payload: Record<string, unknown>, iss: string): string
  createEncodedRecap(resource: string, ability: string, actions: string[]): string
  isCacaoBoundToRequest(p: { cacao: unknown; request: unknown }): { valid: boolean; reason?: string }
}

const account = getDevAccount(1)
const request: AuthPayload = {
  type: 'caip122',
  chains: ['eip155:31337', 'eip155:1'],
  domain: 'dapp.test',
  aud: 'https://dapp.test/login',
  version: '1',
  nonce: 'n0nce1234567',
  iat: new Date().toISOString(),
  statement: 'Sign in',
  exp: new Date(Date.now() + 600_000).toISOString(),
  resources: [sdk.createEncodedRecap('eip155', 'request', ['personal_sign', 'wallet_getCallsStatus'])],
}

describe('buildCacaos', () => {
  test('default: one CACAO per chain, eip191, whose signature verifies on the SDK’s text and binds to the request', async () => {
    const { summary } = summarizeAuthRequest(
      { authPayload: request, expiryTimestamp: 0 },
      { supportedChains: new Set([31337, 1]), address: account.address },
    )
    const cacaos = await buildCacaos({ payload: summary.payload, signer: accountSigner(account) })
    expect(cacaos).toHaveLength(2)
    for (const [i, cacao] of cacaos.entries()) {
      const chain = request.chains[i]
      const iss = `did:pkh:${chain}:${account.address}`
      expect(cacao).toEqual({
        h: { t: 'caip122' },
        p: {
          iss,
          domain: request.domain,
          aud: request.aud,
          version: '1',
          nonce: request.nonce,
          iat: request.iat,
          statement: 'Sign in',
          exp: request.exp,
          resources: summary.payload.resources,
        },
        s: { t: 'eip191', s: expect.stringMatching(/^0x[0-9a-f]{130}$/) },
      })
      // What the person read is what was signed, and what the dapp's SDK rebuilds.
      const text = sdk.formatMessage(cacao.p, iss)
      expect(text).toBe(summary.messages[i]?.text)
      expect(
        await verifyMessage({
          address: account.address,
          message: text,
          signature: cacao.s.s as `0x${string}`,
        }),
      ).toBe(true)
      expect(sdk.isCacaoBoundToRequest({ cacao, request })).toEqual({ valid: true })
    }
  })

  test('args: a smart account signer names its address and eip1271', async () => {
    const signer = {
      address: '0x000000000000000000000000000000000000dEaD',
      signMessage: async () => ({ signature: '0x1234' as const, type: 'eip1271' as const }),
    }
    const [cacao] = await buildCacaos({ payload: { ...request, chains: ['eip155:31337'] }, signer })
    expect(cacao?.p.iss).toBe('did:pkh:eip155:31337:0x000000000000000000000000000000000000dEaD')
    expect(cacao?.s).toEqual({ t: 'eip1271', s: '0x1234' })
  })
})
