// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { authenticate, createSignClient } from '@pairlink/client/v2'
import { type Cacao, formatAuthMessage } from '@pairlink/protocol/v2'
import { getSmartAccountAddress } from '@pairlink/smart-account'
import { createPublicClient, type Hex, http, verifyMessage } from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { createCliHarness, formatSdkMessage } from '../../test/createCliHarness.js'
import { getDevAccount } from '../core/accounts.js'

// Integration: the CLI as a child process, a real relay and anvil, and the published @walletconnect/sign-client
// 2.25.0 as a dapp asking to connect and sign in at once (`authenticate()`, one-click auth).
const harness = createCliHarness({ blockTime: 0 })

const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_switchEthereumChain']
const account = getDevAccount(0)

/** A sign-client dapp asking to connect and sign in (`authenticate()`), its `response()` already waiting. */
async function startAuthDapp() {
  const dapp = await harness.createSdkDapp('v2 auth dapp')
  const { uri, response } = await dapp.authenticate({
    chains: ['eip155:31337', 'eip155:1'],
    domain: 'dapp.test',
    uri: 'https://dapp.test/login',
    nonce: randomUUID().replaceAll('-', ''),
    statement: 'Sign in to the CLI dapp',
    methods: METHODS,
  })
  const answered = response()
  answered.catch(() => {})
  return { dapp, uri, response: answered }
}

describe('pairlink-wallet and one-click auth (wc_sessionAuthenticate)', { timeout: 120_000 }, () => {
  test('default: --approve --auto-sign signs in on each chain and connects; the session answers personal_sign', async () => {
    const { dapp, uri, response } = await startAuthDapp()
    const cli = harness.approving(uri)
    const { session, auths } = await response
    expect(auths).toHaveLength(2)
    for (const [i, cacao] of (auths ?? []).entries()) {
      const iss = `did:pkh:eip155:${[31337, 1][i]}:${account.address}`
      expect(cacao.p).toMatchObject({ iss, domain: 'dapp.test', aud: 'https://dapp.test/login' })
      expect(cacao.s.t).toBe('eip191')
      const message = formatSdkMessage(cacao.p, iss)
      expect(message).toContain('Sign in to the CLI dapp I further authorize the stated URI')
      expect(await verifyMessage({ address: account.address, message, signature: cacao.s.s as Hex })).toBe(
        true,
      )
    }
    expect(await cli.waitFor('session_authenticate')).toMatchObject({
      version: 2,
      peer: { name: 'v2 auth dapp' },
      chainId: harness.anvil.chainId,
      domain: 'dapp.test',
      chains: ['eip155:31337', 'eip155:1'],
      granted: [...METHODS].sort(),
    })
    expect(await cli.waitFor('signed_in')).toEqual({
      event: 'signed_in',
      peer: 'v2 auth dapp',
      domain: 'dapp.test',
      account: account.address,
      chains: [31337, 1],
    })
    expect(await cli.waitFor('connected')).toMatchObject({
      chainId: harness.anvil.chainId,
      accounts: [account.address],
    })
    const topic = session?.topic as string
    expect(session?.namespaces.eip155?.accounts).toEqual([
      `eip155:31337:${account.address}`,
      `eip155:1:${account.address}`,
    ])

    const signature = await dapp.request<Hex>({
      topic,
      chainId: 'eip155:31337',
      request: { method: 'personal_sign', params: ['0x1234', account.address] },
    })
    expect(await verifyMessage({ address: account.address, message: { raw: '0x1234' }, signature })).toBe(
      true,
    )
    expect(await cli.waitFor('signed')).toMatchObject({ method: 'personal_sign', result: signature })
    await dapp.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect(await cli.exited()).toBe(0)
    // Never the link's key, nor a sign-in's signature.
    for (const line of [...cli.lines, cli.stderr()]) {
      expect(line).not.toContain(uri.split('symKey=')[1])
      for (const cacao of auths ?? []) expect(line).not.toContain(cacao.s.s)
    }
  })

  test('behavior: --reject refuses the sign-in (5000): the dapp’s response() rejects', async () => {
    const { uri, response } = await startAuthDapp()
    const cli = harness.wallet(['--uri', uri, '--reject', '--auto-sign', '--relay-url', harness.relayUrl])
    // The SDK rejects with the wallet's message alone.
    await expect(response).rejects.toBe('User rejected.')
    expect(await cli.waitFor('disconnect')).toMatchObject({ message: 'User rejected the sign-in.' })
    expect(await cli.exited()).toBe(0)
  })

  test.each([
    ['--no-one-click', ['--auto-sign', '--no-one-click']],
    ['no --auto-sign (a sign-in is a signature)', []],
  ])('behavior: %s → the dapp falls back to its proposal: a session, no auths', async (_, flags) => {
    const { uri, response } = await startAuthDapp()
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
    const { session, auths } = await response
    expect(auths).toBeUndefined()
    expect(session.namespaces.eip155?.accounts).toContain(`eip155:31337:${account.address}`)
    expect(await cli.waitFor('session_request')).toMatchObject({ peer: { name: 'v2 auth dapp' } })
    expect(cli.lines.some((line) => line.includes('"session_authenticate"'))).toBe(false)
  })
})

describe('pairlink-wallet --smart-account and one-click auth', { timeout: 120_000 }, () => {
  // sign-client checks an eip1271 CACAO through WalletConnect's RPC (no network here): Pairlink's own dapp role checks
  // it through the dev chain, as the server does.
  test.each([
    { kind: 'deployed', index: 5 },
    { kind: 'counterfactual', index: 6 },
  ] as const)(
    'behavior: $kind — the CACAO names the smart account, eip1271, and verifies through the chain',
    async ({ kind, index }) => {
      const reader = createPublicClient({ chain: foundry, transport: http(harness.anvil.url) })
      const address = getSmartAccountAddress({ owner: getDevAccount(index).address })
      const dapp = createSignClient({
        relayUrl: harness.relayUrl,
        storage: false,
        metadata: {
          name: 'v2 auth dapp',
          description: 'Pairlink’s dapp role',
          url: 'https://dapp.test',
          icons: [],
        },
      })
      harness.defer(() => dapp.close())
      const { uri, response } = await authenticate(dapp, {
        chains: ['eip155:31337'],
        domain: 'dapp.test',
        uri: 'https://dapp.test/login',
        nonce: randomUUID().replaceAll('-', ''),
        statement: 'Sign in as a smart account',
        verifyCacao: (cacao, message) =>
          reader.verifyMessage({ address, message, signature: cacao.s.s as Hex }),
      })
      const answered = response()
      answered.catch(() => {})
      const args = ['--account-index', String(index), '--smart-account', kind, '--auto-sign']
      harness.wallet([
        '--uri',
        uri,
        '--approve',
        ...args,
        '--rpc-url',
        harness.anvil.url,
        '--relay-url',
        harness.relayUrl,
      ])
      const { session, auths } = await answered
      expect(auths).toHaveLength(1)
      const [cacao] = auths as [Cacao]
      const iss = `did:pkh:eip155:31337:${address}`
      expect(cacao.p.iss).toBe(iss)
      expect(cacao.s.t).toBe('eip1271')
      const message = formatAuthMessage({ request: cacao.p, iss })
      expect(await reader.verifyMessage({ address, message, signature: cacao.s.s as Hex })).toBe(true)
      expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${address}`])
    },
  )
})
