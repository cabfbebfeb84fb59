// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { createBridgeServer } from '@pairlink/bridge'
import { MAIL_TYPED_DATA, sendRequiredNamespaces } from '@pairlink/test-kit'
import type { SignClient } from '@walletconnect/sign-client'
import {
  createPublicClient,
  type Hex,
  http,
  numberToHex,
  parseEther,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { createCliHarness } from '../../test/createCliHarness.js'
import { getDevAccount } from '../core/accounts.js'
import { WALLET_METHODS } from '../core/namespaces.js'
import { describeRefusal } from './runCli.js'

// Integration: the CLI as a child process, a real relay (the bridge server serves v1 and v2 on one port), a real
// anvil, and the published @walletconnect/sign-client 2.25.0 as the dapp.
type Dapp = Awaited<ReturnType<typeof SignClient.init>>
const harness = createCliHarness()

const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_switchEthereumChain']
const EVENTS = ['chainChanged', 'accountsChanged']
const account = getDevAccount(0)

/**
 * A sign-client dapp proposing a session with optional namespaces only (as the 2.2x SDK sends them), or with
 * `required` ones too (as SDKs before 2.19 sent them).
 */
async function startDapp(
  chains = ['eip155:31337', 'eip155:1'],
  required?: Parameters<typeof sendRequiredNamespaces>[1],
  relay = { relayUrl: harness.relayUrl, projectId: '0123456789abcdef0123456789abcdef' },
) {
  const dapp = await harness.createSdkDapp('v2 CLI dapp', relay)
  if (required) sendRequiredNamespaces(dapp, required)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains, methods: METHODS, events: EVENTS } },
  })
  if (!uri) throw new Error('no URI')
  const settled = approval()
  settled.catch(() => {})
  return { dapp, uri, approval: settled }
}

const call = <result>(
  dapp: Dapp,
  topic: string,
  method: string,
  params: unknown[],
  chainId = 'eip155:31337',
) => dapp.request<result>({ topic, chainId, request: { method, params } })

describe('pairlink-wallet over WalletConnect v2', { timeout: 120_000 }, () => {
  test('default: pair, approve, sign, typed data, send on anvil; the dapp disconnects → exit 0', async () => {
    const { dapp, uri, approval } = await startDapp()
    const cli = harness.approving(uri)
    const session = await approval
    expect(await cli.waitFor('pairing')).toEqual({
      event: 'pairing',
      version: 2,
      relay: harness.relayUrl,
      account: account.address,
    })
    expect(await cli.waitFor('session_request')).toMatchObject({
      version: 2,
      peer: { name: 'v2 CLI dapp' },
      chainId: harness.anvil.chainId,
      chains: ['eip155:31337', 'eip155:1'],
      methods: METHODS,
      events: EVENTS,
    })
    expect(session.namespaces.eip155).toEqual({
      chains: ['eip155:31337', 'eip155:1'],
      accounts: [`eip155:31337:${account.address}`, `eip155:1:${account.address}`],
      methods: [...WALLET_METHODS],
      events: EVENTS,
    })
    expect(session.peer.metadata.name).toBe('Pairlink CLI wallet')
    expect(await cli.waitFor('connected')).toMatchObject({
      chainId: harness.anvil.chainId,
      accounts: [account.address],
    })

    const message = toHex('Hello from v2')
    const signature = await call<Hex>(dapp, session.topic, 'personal_sign', [message, account.address])
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
    expect(await cli.waitFor('signed')).toMatchObject({ method: 'personal_sign', result: signature })

    const typed = await call<Hex>(dapp, session.topic, 'eth_signTypedData_v4', [
      account.address,
      JSON.stringify(MAIL_TYPED_DATA),
    ])
    const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
    expect(
      await verifyTypedData({ ...MAIL_TYPED_DATA, types, address: account.address, signature: typed }),
    ).toBe(true)

    const to = getDevAccount(6).address
    const node = createPublicClient({ transport: http(harness.anvil.url) })
    const before = await node.getBalance({ address: to })
    const tx = { from: account.address, to, value: numberToHex(parseEther('0.25')) }
    const hash = await call<Hex>(dapp, session.topic, 'eth_sendTransaction', [tx])
    const receipt = await node.waitForTransactionReceipt({ hash, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    expect(await node.getBalance({ address: to })).toBe(before + parseEther('0.25'))
    expect(await cli.waitFor('sent')).toMatchObject({ method: 'eth_sendTransaction', result: hash })

    await dapp.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect(await cli.waitFor('disconnect')).toEqual({ event: 'disconnect', message: 'Session disconnected' })
    expect(await cli.exited()).toBe(0)
    for (const line of [...cli.lines, cli.stderr()]) expect(line).not.toContain(uri.split('symKey=')[1])
  })

  test('behavior: wallet_switchEthereumChain emits chainChanged, and adds a chain the session lacked', async () => {
    const { dapp, uri, approval } = await startDapp(['eip155:31337'])
    harness.approving(uri)
    const { topic } = await approval
    const events: { name: string; data: unknown; chainId: string }[] = []
    dapp.on('session_event', ({ params }) => events.push({ ...params.event, chainId: params.chainId }))
    let updates = 0
    dapp.on('session_update', () => updates++)

    expect(await call(dapp, topic, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toBeNull()
    await expect.poll(() => events).toEqual([{ name: 'chainChanged', data: 1, chainId: 'eip155:1' }])
    // The update comes first: the SDK takes an event only on a chain of the session.
    expect(updates).toBe(1)
    expect(dapp.session.get(topic).namespaces.eip155?.chains).toEqual(['eip155:31337', 'eip155:1'])
    // The new chain is the session's: a request on it is answered.
    expect(await call(dapp, topic, 'eth_chainId', [], 'eip155:1')).toBe('0x1')

    // Back to a chain the session has: the event alone, no update.
    expect(
      await call(dapp, topic, 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }], 'eip155:1'),
    ).toBeNull()
    await expect.poll(() => events.length).toBe(2)
    expect(events[1]).toEqual({ name: 'chainChanged', data: 31337, chainId: 'eip155:31337' })
    expect(updates).toBe(1)
  })

  test('behavior: --reject refuses the proposal (5000) and exits 0', async () => {
    const { uri, approval } = await startDapp()
    const cli = harness.wallet(['--uri', uri, '--reject', '--relay-url', harness.relayUrl])
    await expect(approval).rejects.toMatchObject({ code: 5000, message: 'User rejected.' })
    expect(await cli.waitFor('disconnect')).toMatchObject({ message: 'User rejected the session.' })
    expect(await cli.exited()).toBe(0)
  })

  test('behavior: --approve refuses a proposal that requires an unsupported chain (5100), says why and exits 0', async () => {
    const required = { eip155: { chains: ['eip155:999'], methods: ['personal_sign'], events: [] } }
    const { dapp, uri, approval } = await startDapp(['eip155:31337'], required)
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      '--chain-id',
      '31337',
      '--relay-url',
      harness.relayUrl,
    ])
    await expect(approval).rejects.toMatchObject({ code: 5100, message: 'Unsupported chains. eip155:999' })
    const reason = 'it requires the chain eip155:999, which this wallet does not support'
    expect(await cli.waitFor('session_request')).toMatchObject({
      chains: ['eip155:999', 'eip155:31337'],
      refused: reason,
    })
    expect(await cli.waitFor('disconnect')).toEqual({
      event: 'disconnect',
      message: `Refused the session request: ${reason}`,
    })
    expect(await cli.exited()).toBe(0)
    expect(dapp.session.getAll()).toEqual([])
  })

  test('behavior: without --auto-sign a request is rejected with 4001; SIGTERM ends the session for the dapp', async () => {
    const { dapp, uri, approval } = await startDapp()
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      '--rpc-url',
      harness.anvil.url,
      '--relay-url',
      harness.relayUrl,
    ])
    const { topic } = await approval
    const deleted = new Promise<{ topic: string }>((resolve) => dapp.once('session_delete', resolve))
    await expect(call(dapp, topic, 'personal_sign', ['0x00', account.address])).rejects.toMatchObject({
      code: 4001,
      message: 'User rejected the request.',
    })
    expect(await cli.waitFor('rejected')).toMatchObject({ method: 'personal_sign', error: { code: 4001 } })
    process.kill(cli.child.pid as number, 'SIGTERM')
    expect((await deleted).topic).toBe(topic)
    expect(await cli.exited()).toBe(0)
  })

  test('args: without --relay-url the relay is the server of --rpc-url, on its port', async () => {
    const { dapp, uri, approval } = await startDapp()
    // The bridge server is the relay; it serves no RPC, so the chain is given and only a signature is asked for.
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      '--auto-sign',
      '--rpc-url',
      `${harness.origin}/rpc`,
      '--chain-id',
      '31337',
    ])
    const { topic } = await approval
    expect(await cli.waitFor('pairing')).toMatchObject({ version: 2, relay: harness.relayUrl })
    const signature = await call<Hex>(dapp, topic, 'personal_sign', ['0x1234', account.address])
    expect(await verifyMessage({ address: account.address, message: { raw: '0x1234' }, signature })).toBe(
      true,
    )
  })

  test('error: an expired link → a clear message and exit 2', async () => {
    const { uri } = await startDapp()
    const expired = uri.replace(/expiryTimestamp=\d+/, `expiryTimestamp=${Math.floor(Date.now() / 1000) - 1}`)
    const cli = harness.wallet(['--uri', expired, '--approve', '--relay-url', harness.relayUrl])
    expect(await cli.exited()).toBe(2)
    expect(cli.stderr()).toBe(
      'pairlink-wallet: This WalletConnect v2 link has expired: a link is valid for a few minutes and pairs once. Get a new link from the dapp and connect again\n',
    )
  })
})

describe("pairlink-wallet on a relay that checks the project (WalletConnect's network)", {
  timeout: 120_000,
}, () => {
  const PROJECT = 'fedcba9876543210fedcba9876543210'
  /** Pairlink's relay serving only `PROJECT`, as WalletConnect's serves only known projects; its ws:// URL. */
  let refusals = () => 0
  async function restrictedRelay(): Promise<string> {
    const server = createBridgeServer({ relay: { projectIds: [PROJECT] } })
    harness.defer(() => server.close())
    refusals = () => server.relay?.counts.authRefusals ?? 0
    return (await server.listen(0, '127.0.0.1')).url.replace(/^http/, 'ws')
  }

  test('args: --project-id X --relay-url answers a published sign-client dapp on a relay restricted to X', async () => {
    const restricted = await restrictedRelay()
    const { dapp, uri, approval } = await startDapp(['eip155:31337'], undefined, {
      relayUrl: restricted,
      projectId: PROJECT,
    })
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      '--auto-sign',
      '--chain-id',
      '31337',
      '--project-id',
      PROJECT,
      '--relay-url',
      restricted,
    ])
    const { topic } = await approval
    expect(await cli.waitFor('pairing')).toMatchObject({ version: 2, relay: restricted })
    const signature = await call<Hex>(dapp, topic, 'personal_sign', ['0x1234', account.address])
    expect(await verifyMessage({ address: account.address, message: { raw: '0x1234' }, signature })).toBe(
      true,
    )
  })

  test('args: WALLETCONNECT_PROJECT_ID and WALLETCONNECT_RELAY_URL do the same', async () => {
    const restricted = await restrictedRelay()
    const { uri, approval } = await startDapp(['eip155:31337'], undefined, {
      relayUrl: restricted,
      projectId: PROJECT,
    })
    const cli = harness.wallet(['--uri', uri, '--reject'], {
      WALLETCONNECT_PROJECT_ID: PROJECT,
      WALLETCONNECT_RELAY_URL: restricted,
    })
    await expect(approval).rejects.toMatchObject({ code: 5000 })
    expect(await cli.exited()).toBe(0)
  })

  // Needs the v2 client's RelayRefusedError (contract of issue 24, helper "client"): before it, the client retries
  // the refused upgrade until the subscription times out.
  test('error: a project the relay refuses → one JSON error line naming the fix, exit 1, no retry loop', async () => {
    const restricted = await restrictedRelay()
    const { uri } = await startDapp(['eip155:31337'], undefined, { relayUrl: restricted, projectId: PROJECT })
    const other = '00000000000000000000000000000000'
    const cli = harness.wallet([
      '--uri',
      uri,
      '--approve',
      '--chain-id',
      '31337',
      '--project-id',
      other,
      '--relay-url',
      restricted,
    ])
    expect(await cli.exited()).toBe(1)
    const errors = cli.lines.map((line) => JSON.parse(line)).filter((line) => line.event === 'error')
    expect(errors).toHaveLength(1)
    // The refused upgrade is not retried in a loop (an explicit call may try once more).
    expect(refusals()).toBeLessThanOrEqual(2)
    expect(errors[0].message).toMatch(
      new RegExp(
        `^The relay ${restricted} refused project ${other} \\(".+"\\): .*https://dashboard\\.reown\\.com`,
      ),
    )
  })

  test.each([
    [
      'project-unknown',
      'Project not found',
      'pass --project-id (or set WALLETCONNECT_PROJECT_ID) with a project id from https://dashboard.reown.com',
    ],
    [
      'project-missing',
      'Project ID is missing',
      'pass --project-id (or set WALLETCONNECT_PROJECT_ID) with a project id from https://dashboard.reown.com',
    ],
    [
      'origin',
      'Unauthorized: origin not allowed',
      "add this wallet's origin to the project's allowed domains at https://dashboard.reown.com, or pass another --project-id",
    ],
    [
      'other',
      'Forbidden',
      'check --project-id (a project id from https://dashboard.reown.com) and --relay-url',
    ],
  ])('behavior: a refusal of kind %s names its fix', (kind, reason, fix) => {
    const refusal = { message: `Relay refused the connection: ${reason}`, kind, reason, closeCode: 3000 }
    expect(describeRefusal(refusal, { relayUrl: 'wss://relay.walletconnect.org', projectId: 'abc' })).toBe(
      `The relay wss://relay.walletconnect.org refused project abc ("${reason}"): ${fix}`,
    )
  })
})
