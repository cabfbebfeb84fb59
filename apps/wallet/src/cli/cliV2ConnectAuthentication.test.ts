// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { connect, createSignClient } from '@pairlink/client/v2'
import { formatAuthMessage } from '@pairlink/protocol/v2'
import { getSmartAccountAddress } from '@pairlink/smart-account'
import { createPublicClient, type Hex, http, verifyMessage } from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { createCliHarness, formatSdkMessage } from '../../test/createCliHarness.js'
import { getDevAccount } from '../core/accounts.js'

// Integration: the CLI as a child process, a real relay and anvil, and the published @walletconnect/sign-client
// 2.25.0 as a dapp asking for a session and a sign-in in one proposal (`connect({ authentication })`).
const harness = createCliHarness({ blockTime: 0 })

const account = getDevAccount(0)
const optionalNamespaces = {
  eip155: {
    chains: ['eip155:31337'],
    methods: ['personal_sign'],
    events: ['chainChanged', 'accountsChanged'],
  },
}
const signIn = () => ({
  chains: ['eip155:31337', 'eip155:1'],
  domain: 'dapp.test',
  uri: 'https://dapp.test/login',
  nonce: randomUUID().replaceAll('-', ''),
  statement: 'Sign in to the CLI dapp',
})

/** A sign-client dapp proposing a session with a sign-in, its `approval()` already waiting. */
async function startDapp() {
  const dapp = await harness.createSdkDapp('v2 sign-in dapp')
  const { uri, approval } = await dapp.connect({
    optionalNamespaces,
    authentication: [{ ...signIn(), ttl: 300 }],
  })
  const approved = approval()
  approved.catch(() => {})
  return { uri: uri as string, approval: approved }
}

describe('pairlink-wallet and a proposal with a sign-in (requests.authentication)', {
  timeout: 120_000,
}, () => {
  test('default: --approve --auto-sign settles the session with a CACAO per chain; each verifies', async () => {
    const { uri, approval } = await startDapp()
    const cli = harness.approving(uri)
    const session = await approval
    const cacaos = session.authentication ?? []
    expect(cacaos.map((cacao) => cacao.p.iss)).toEqual([
      `did:pkh:eip155:31337:${account.address}`,
      `did:pkh:eip155:1:${account.address}`,
    ])
    for (const cacao of cacaos) {
      expect(cacao.p).toMatchObject({ domain: 'dapp.test', aud: 'https://dapp.test/login', version: '1' })
      const message = formatSdkMessage(cacao.p, cacao.p.iss)
      expect(await verifyMessage({ address: account.address, message, signature: cacao.s.s as Hex })).toBe(
        true,
      )
    }
    expect(session.namespaces.eip155?.accounts).toContain(`eip155:31337:${account.address}`)
    expect(await cli.waitFor('session_authenticate')).toMatchObject({
      peer: { name: 'v2 sign-in dapp' },
      domain: 'dapp.test',
      chains: ['eip155:31337', 'eip155:1'],
    })
    expect(await cli.waitFor('signed_in')).toMatchObject({ domain: 'dapp.test', chains: [31337, 1] })
    expect(await cli.waitFor('connected')).toMatchObject({ accounts: [account.address] })
  })

  test.each([
    ['--no-one-click', ['--auto-sign', '--no-one-click']],
    ['no --auto-sign (a sign-in is a signature)', []],
  ])('behavior: %s → the session alone, no CACAOs (the dapp signs in another way)', async (_, flags) => {
    const { uri, approval } = await startDapp()
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      ...flags,
      '--rpc-url',
      harness.anvil.url,
      '--relay-url',
      harness.relayUrl,
    ])
    const session = await approval
    expect(session.authentication).toBeUndefined()
    expect(session.namespaces.eip155?.accounts).toContain(`eip155:31337:${account.address}`)
    expect(await cli.waitFor('session_request')).toMatchObject({ peer: { name: 'v2 sign-in dapp' } })
    expect(cli.lines.some((line) => line.includes('"session_authenticate"'))).toBe(false)
  })

  test('behavior: --smart-account counterfactual — our dapp’s connect checks the eip1271 CACAO through the chain', async () => {
    const reader = createPublicClient({ chain: foundry, transport: http(harness.anvil.url) })
    const address = getSmartAccountAddress({ owner: getDevAccount(6).address })
    const dapp = createSignClient({
      relayUrl: harness.relayUrl,
      storage: false,
      metadata: {
        name: 'v2 sign-in dapp',
        description: 'Pairlink’s dapp role',
        url: 'https://dapp.test',
        icons: [],
      },
    })
    harness.defer(() => dapp.close())
    const { uri, approval } = await connect(dapp, {
      optionalNamespaces,
      authentication: [{ ...signIn(), chains: ['eip155:31337'] }],
      verifyCacao: (cacao, message) =>
        reader.verifyMessage({ address, message, signature: cacao.s.s as Hex }),
    })
    const args = ['--account-index', '6', '--smart-account', 'counterfactual', '--auto-sign']
    harness.wallet([
      '--uri',
      uri as string,
      '--approve',
      ...args,
      '--rpc-url',
      harness.anvil.url,
      '--relay-url',
      harness.relayUrl,
    ])
    const session = await approval()
    const [cacao] = session.authentication ?? []
    expect(cacao?.p.iss).toBe(`did:pkh:eip155:31337:${address}`)
    expect(cacao?.s.t).toBe('eip1271')
    const message = formatAuthMessage({ request: cacao?.p as never, iss: cacao?.p.iss as string })
    expect(await reader.verifyMessage({ address, message, signature: cacao?.s.s as Hex })).toBe(true)
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${address}`])
  })
})
