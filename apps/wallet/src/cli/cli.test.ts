import { createBridgeServer } from '@pairlink/bridge'
import { createClient, type DappClient, dappActions } from '@pairlink/client'
import { RpcError } from '@pairlink/protocol'
import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { createPublicClient, http, parseEther, verifyMessage, verifyTypedData } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { runWalletCli, type WalletProcess } from '../../test/runWalletCli.js'
import { DEV_PRIVATE_KEYS, getDevAccount } from '../core/accounts.js'
import { runCli } from './runCli.js'

// Integration: the CLI as a child process, a real bridge, a real anvil, and a dapp made with our client.
let anvil: Anvil
let bridge: ReturnType<typeof createBridgeServer>
let bridgeUrl: string
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  anvil = await startAnvil()
  bridge = createBridgeServer()
  bridgeUrl = (await bridge.listen(0, '127.0.0.1')).url
})
afterAll(async () => {
  await bridge?.close()
  await anvil?.stop()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const DAPP_META = {
  name: 'CLI test dapp',
  description: 'a dapp in a test',
  url: 'https://dapp.test',
  icons: [],
}

/** A dapp whose connect() is under way, and the URI it shows. */
async function startDapp(): Promise<{
  dapp: DappClient
  uri: string
  connecting: ReturnType<DappClient['connect']>
}> {
  let showUri!: (uri: string) => void
  const shown = new Promise<string>((resolve) => {
    showUri = resolve
  })
  const dapp = createClient({
    bridge: bridgeUrl,
    storage: false,
    clientMeta: DAPP_META,
    WebSocket,
    modal: { open: (uri) => showUri(uri), close: () => {} },
  }).extend(dappActions)
  cleanups.push(() => dapp.close())
  const connecting = dapp.connect({ chainId: anvil.chainId })
  connecting.catch(() => {})
  return { dapp, uri: await shown, connecting }
}

function wallet(args: string[], env: Record<string, string> = {}): WalletProcess {
  const cli = runWalletCli(args, env)
  cleanups.push(() => cli.stop())
  return cli
}

/** Every line is one JSON object with an `event`, and none holds a secret. */
function expectCleanOutput(cli: WalletProcess, secrets: string[]) {
  expect(cli.lines.length).toBeGreaterThan(0)
  for (const line of cli.lines) {
    expect(typeof (JSON.parse(line) as { event?: unknown }).event).toBe('string')
    for (const secret of secrets) expect(line.toLowerCase()).not.toContain(secret.toLowerCase())
  }
  for (const secret of secrets) expect(cli.stderr().toLowerCase()).not.toContain(secret.toLowerCase())
}

const uriKey = (uri: string) => new URL(uri.replace(/^wc:/, 'wc://')).searchParams.get('key') ?? ''

// Each child process is waited on for what it prints and for its exit, never for a guessed time; this bound only
// ends a test that hangs, generous because every test starts a process (tsx compiles the CLI's sources).
describe('pairlink-wallet', { timeout: 120_000 }, () => {
  test('default: --approve --auto-sign signs, sends, and exits 0 when the dapp disconnects', async () => {
    const { dapp, uri, connecting } = await startDapp()
    const cli = wallet(['--uri', uri, '--approve', '--auto-sign', '--rpc-url', anvil.url])
    const account = getDevAccount(0)

    const session = await connecting
    expect(session).toMatchObject({ accounts: [account.address], chainId: anvil.chainId })
    expect(session.peerMeta?.name).toBe('Pairlink CLI wallet')
    expect(await cli.waitFor('session_request')).toMatchObject({ peer: DAPP_META, chainId: anvil.chainId })
    expect(await cli.waitFor('connected')).toMatchObject({
      accounts: [account.address],
      chainId: anvil.chainId,
    })

    const signature = (await dapp.signPersonalMessage(['Hello from CI', account.address])) as `0x${string}`
    expect(await verifyMessage({ address: account.address, message: 'Hello from CI', signature })).toBe(true)
    expect(await cli.waitFor('call_request')).toMatchObject({
      method: 'personal_sign',
      decoded: { kind: 'message', text: 'Hello from CI' },
    })
    expect(await cli.waitFor('signed')).toMatchObject({ method: 'personal_sign', result: signature })

    const typed = (await dapp.signTypedData([
      account.address,
      JSON.stringify(MAIL_TYPED_DATA),
    ])) as `0x${string}`
    const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
    expect(
      await verifyTypedData({ ...MAIL_TYPED_DATA, types, address: account.address, signature: typed }),
    ).toBe(true)

    const to = getDevAccount(5).address
    const node = createPublicClient({ transport: http(anvil.url) })
    const before = await node.getBalance({ address: to })
    const hash = (await dapp.sendTransaction({
      from: account.address,
      to,
      value: parseEther('0.5'),
    })) as `0x${string}`
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await cli.waitFor('sent')).toMatchObject({ method: 'eth_sendTransaction', result: hash })
    const receipt = await node.waitForTransactionReceipt({ hash, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    expect(await node.getBalance({ address: to })).toBe(before + parseEther('0.5'))

    await dapp.killSession()
    expect(await cli.waitFor('disconnect')).toEqual({ event: 'disconnect', message: 'Session disconnected' })
    expect(await cli.exited()).toBe(0)
    expectCleanOutput(cli, [uri, uriKey(uri), DEV_PRIVATE_KEYS[0].slice(2)])
  })

  test('behavior: --reject rejects the session; the dapp’s connect rejects with the message', async () => {
    const { uri, connecting } = await startDapp()
    const cli = wallet(['--uri', uri, '--reject'])
    await expect(connecting).rejects.toThrow('User rejected the session.')
    expect(await cli.waitFor('disconnect')).toMatchObject({ message: 'User rejected the session.' })
    expect(await cli.exited()).toBe(0)
    expectCleanOutput(cli, [uri, uriKey(uri)])
  })

  test('behavior: without --auto-sign every request is rejected with 4001', async () => {
    const { dapp, uri, connecting } = await startDapp()
    const cli = wallet([
      '--uri',
      uri,
      '--approve',
      '--chain-id',
      String(anvil.chainId),
      '--rpc-url',
      anvil.url,
    ])
    const { accounts } = await connecting
    const error = await dapp.signPersonalMessage(['nope', accounts[0] ?? '']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    expect(error).toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(await cli.waitFor('rejected')).toMatchObject({
      method: 'personal_sign',
      error: { code: 4001, message: 'User rejected the request.' },
    })
    await dapp.killSession()
    expect(await cli.exited()).toBe(0)
  })

  test('args: --private-key signs with the imported key and never prints it', async () => {
    const key = DEV_PRIVATE_KEYS[3]
    const { dapp, uri, connecting } = await startDapp()
    const cli = wallet([
      '--uri',
      uri,
      '--approve',
      '--auto-sign',
      '--private-key',
      key,
      '--rpc-url',
      anvil.url,
    ])
    const { accounts } = await connecting
    expect(accounts).toEqual([getDevAccount(3).address])
    const signature = (await dapp.signPersonalMessage(['0x1234', getDevAccount(3).address])) as `0x${string}`
    expect(
      await verifyMessage({ address: getDevAccount(3).address, message: { raw: '0x1234' }, signature }),
    ).toBe(true)
    await dapp.killSession()
    expect(await cli.exited()).toBe(0)
    expectCleanOutput(cli, [key.slice(2), uriKey(uri)])
  })

  test('behavior: unsupported method → 4200; wallet_switchEthereumChain updates the session', async () => {
    const { dapp, uri, connecting } = await startDapp()
    const cli = wallet([
      '--uri',
      uri,
      '--approve',
      '--auto-sign',
      '--account-index',
      '2',
      '--rpc-url',
      anvil.url,
    ])
    expect((await connecting).accounts).toEqual([getDevAccount(2).address])
    const error = await dapp.request({ method: 'eth_decrypt', params: ['0x00'] }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 4200,
      message: 'The wallet does not support the method "eth_decrypt"',
    })
    // Approved but not doable: a failure, not the person's rejection.
    expect(await cli.waitFor('failed')).toMatchObject({ method: 'eth_decrypt', error: { code: 4200 } })

    const updated = new Promise((resolve) => dapp.once('session_update', resolve))
    expect(
      await dapp.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    ).toBeNull()
    expect(await updated).toEqual({ chainId: 1, accounts: [getDevAccount(2).address] })
    expect(await cli.waitFor('approved')).toMatchObject({
      method: 'wallet_switchEthereumChain',
      result: null,
    })
    await dapp.killSession()
    expect(await cli.exited()).toBe(0)
  })

  test('behavior: --timeout ends a connected session (the dapp sees the disconnect) and exits 0', async () => {
    const { dapp, uri, connecting } = await startDapp()
    const cli = wallet(['--uri', uri, '--approve', '--chain-id', '31337', '--timeout', '2'])
    await connecting
    const disconnected = new Promise((resolve) => dapp.once('disconnect', resolve))
    expect(await disconnected).toEqual({ message: 'Session disconnected' })
    expect(await cli.waitFor('timeout')).toMatchObject({ seconds: 2 })
    expect(await cli.exited()).toBe(0)
  })

  test('error: no session request before --timeout → exit 1', async () => {
    const uri = `wc:00000000-0000-4000-8000-000000000000@1?bridge=${encodeURIComponent(bridgeUrl)}&key=${'ab'.repeat(32)}`
    const cli = wallet(['--uri', uri, '--reject', '--timeout', '1'])
    expect(await cli.exited()).toBe(1)
    expect(cli.stderr()).toBe('pairlink-wallet: No session within 1 s\n')
    expectCleanOutput(cli, [uri, 'ab'.repeat(32)])
  })

  test.each([
    [['--uri', 'WC:x@1?bridge=b&key=k', '--approve'], 'URI format is invalid'],
    [['--uri', 'wc:@1?bridge=b&key=k', '--approve'], 'Invalid or missing handshakeTopic parameter value'],
    [['--uri', 'wc:t@1?key=k', '--approve'], 'Invalid or missing bridge url parameter value'],
    [['--uri', 'wc:t@1?bridge=b', '--approve'], 'Invalid or missing key parameter value'],
    [
      ['--uri', 'wc:t@1', '--approve'],
      'This link only brings the wallet forward; it is not a pairing request',
    ],
    [
      ['--uri', `wc:${'7f'.repeat(32)}@2?relay-protocol=irn`, '--approve'],
      'This WalletConnect v2 link is incomplete or damaged: copy the whole link the dapp shows, or scan its QR code again',
    ],
    [
      [
        '--uri',
        `wc:${'7f'.repeat(32)}@2?relay-protocol=irn&symKey=${'ab'.repeat(32)}`,
        '--approve',
        '--relay-url',
        'http://x',
      ],
      '--relay-url must be a ws(s) URL (see --help)',
    ],
    [['--uri', 'wc:t@1?bridge=b&key=k'], 'Pass exactly one of --approve and --reject (see --help)'],
    [['--approve'], 'Missing --uri: pass the dapp’s wc: URI (see --help)'],
    [
      ['--uri', 'wc:t@1?bridge=b&key=k', '--approve', '--private-key', '0xdeadbeef'],
      'Invalid private key: expected 0x followed by 64 hex digits (see --help)',
    ],
  ])('error: %j → exit 2: %s', async (args, message) => {
    // In-process: the same code path as the binary, without a process start per case.
    const lines: string[] = []
    const errors: string[] = []
    const code = await runCli({
      args,
      stdout: (line) => lines.push(line),
      stderr: (text) => errors.push(text),
    })
    const stderr = errors.join('')
    expect(code).toBe(2)
    expect(stderr).toBe(`pairlink-wallet: ${message}\n`)
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ event: 'error', message }])
    expect(stderr).not.toContain('deadbeef')
  })

  test('error: the binary exits 2 on bad arguments', async () => {
    const cli = wallet(['--uri', 'wc:t@1?bridge=b', '--approve'])
    expect(await cli.exited()).toBe(2)
    expect(cli.stderr()).toBe('pairlink-wallet: Invalid or missing key parameter value\n')
  })

  test('args: --help', async () => {
    const cli = wallet(['--help'])
    expect(await cli.exited()).toBe(0)
    expect(cli.lines[0]).toBe("Usage: pairlink-wallet --uri 'wc:…' (--approve | --reject) [options]")
  })
})
