// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { getSmartAccountAddress } from '@pairlink/smart-account'
import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { createPublicClient, type Hex, http, isErc6492Signature, toHex } from 'viem'
import { foundry } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import { createCliHarness } from '../../test/createCliHarness.js'
import { getDevAccount } from '../core/accounts.js'

// Integration: `pairlink-wallet --smart-account` as a child process, a real relay, a real anvil (its account factory
// deployed by startAnvil, as the server's dev chain has it) and the published sign-client 2.25.0 as the dapp, which
// checks what it gets as any dapp would: viem's public-client verification through the chain.
const harness = createCliHarness({ blockTime: 0 })
let reader: ReturnType<typeof createPublicClient>
beforeAll(() => {
  reader = createPublicClient({ chain: foundry, transport: http(harness.anvil.url) })
})

async function connect(args: string[]) {
  const dapp = await harness.createSdkDapp('smart dapp')
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: {
        chains: ['eip155:31337'],
        methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
        events: ['chainChanged', 'accountsChanged'],
      },
    },
  })
  if (!uri) throw new Error('no URI')
  const cli = harness.approving(uri, args)
  const session = await approval()
  const call = <result>(method: string, params: unknown[]) =>
    dapp.request<result>({ topic: session.topic, chainId: 'eip155:31337', request: { method, params } })
  return { cli, session, call }
}

describe('pairlink-wallet --smart-account', { timeout: 120_000 }, () => {
  test.each([
    { kind: 'deployed', index: 3 },
    { kind: 'counterfactual', index: 4 },
  ] as const)(
    'behavior: $kind — the session names the smart account, whose signatures verify through the chain',
    async ({ kind, index }) => {
      const owner = getDevAccount(index)
      const address = getSmartAccountAddress({ owner: owner.address })
      const { cli, session, call } = await connect([
        '--account-index',
        String(index),
        '--smart-account',
        kind,
      ])
      expect(await cli.waitFor('pairing')).toMatchObject({
        account: address,
        smartAccount: kind,
        owner: owner.address,
      })
      expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${address}`])
      // Deployed at start from the owner key; a counterfactual one never is.
      expect(await reader.getCode({ address })).toSatisfy(
        (code) => (kind === 'deployed') === (code !== undefined),
      )

      const message = toHex('Hello from a smart account')
      const signature = await call<Hex>('personal_sign', [message, address])
      expect(isErc6492Signature(signature)).toBe(kind === 'counterfactual')
      expect(await reader.verifyMessage({ address, message: { raw: message }, signature })).toBe(true)
      expect(await reader.verifyMessage({ address, message: 'another message', signature })).toBe(false)

      const typed = await call<Hex>('eth_signTypedData_v4', [address, JSON.stringify(MAIL_TYPED_DATA)])
      const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
      expect(await reader.verifyTypedData({ ...MAIL_TYPED_DATA, types, address, signature: typed })).toBe(
        true,
      )

      await expect(
        call('eth_sendTransaction', [{ from: address, to: owner.address, value: '0x1' }]),
      ).rejects.toMatchObject({
        code: 4200,
        message: expect.stringContaining('does not send transactions from the smart account'),
      })
      expect(await reader.getCode({ address })).toSatisfy(
        (code) => (kind === 'deployed') === (code !== undefined),
      )
    },
  )

  test('error: --smart-account deployed with an unfunded key says so at start and exits 1', async () => {
    const key = `0x${'11'.repeat(32)}`
    const cli = harness.wallet([
      '--uri',
      `wc:${'ab'.repeat(32)}@2?relay-protocol=irn&symKey=${'cd'.repeat(32)}&expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}`,
      '--approve',
      '--private-key',
      key,
      '--smart-account',
      'deployed',
      '--rpc-url',
      harness.anvil.url,
      '--relay-url',
      harness.relayUrl,
    ])
    expect(await cli.exited()).toBe(1)
    expect(cli.stderr()).toMatch(/The smart account 0x[0-9a-fA-F]{40} could not be deployed from its key/)
    expect(cli.stderr()).toMatch(/insufficient funds|exceeds the balance/i)
    expect(cli.stderr()).not.toContain('11'.repeat(32))
  })
})
