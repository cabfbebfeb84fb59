import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { createBridgeServer } from '@pairlink/bridge'
import { type Anvil, type StartAnvilParameters, startAnvil } from '@pairlink/test-kit/anvil'
import { SignClient } from '@walletconnect/sign-client'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { runWalletCli, type WalletProcess } from './runWalletCli.js'

/** The SDK's own SIWE text of a CACAO (`formatMessage` of @walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it). */
export const formatSdkMessage = (
  createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
    '@walletconnect/utils',
  ) as {
    formatMessage(payload: object, iss: string): string
  }
).formatMessage

/**
 * What a CLI integration test file runs against: a real anvil and a real bridge server (v1 bridge and v2 relay on one
 * port 0), started once for the file; each CLI process and SDK dapp made through it is ended after its test, the
 * last made first.
 * @example
 * const harness = createCliHarness({ blockTime: 0 })
 * test('default', async () => {
 *   const dapp = await harness.createSdkDapp('v2 dapp')
 *   const { uri } = await dapp.connect({ optionalNamespaces })
 *   const wallet = harness.approving(uri as string)
 *   expect(await wallet.waitFor('connected')).toMatchObject({ chainId: harness.anvil.chainId })
 * })
 */
export function createCliHarness(anvilParameters: StartAnvilParameters = {}) {
  let anvil: Anvil | undefined
  let bridge: ReturnType<typeof createBridgeServer> | undefined
  let origin: string | undefined
  const cleanups: (() => unknown)[] = []

  beforeAll(async () => {
    anvil = await startAnvil(anvilParameters)
    bridge = createBridgeServer()
    origin = (await bridge.listen(0, '127.0.0.1')).url
  })
  afterAll(async () => {
    await bridge?.close()
    await anvil?.stop()
  })
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const started = <value>(value: value | undefined): value => {
    if (value === undefined) throw new Error('createCliHarness: used before its beforeAll ran')
    return value
  }
  const relayUrl = () => started(origin).replace(/^http/, 'ws')
  const wallet = (args: string[], env?: Record<string, string>): WalletProcess => {
    const cli = runWalletCli(args, env)
    cleanups.push(() => cli.stop())
    return cli
  }
  return {
    /** The anvil chain (`url`, `chainId`). */
    get anvil() {
      return started(anvil)
    },
    /** The bridge server's `http://` origin (the v1 bridge URL). */
    get origin() {
      return started(origin)
    },
    /** The bridge server's `ws://` URL (the v2 relay). */
    get relayUrl() {
      return relayUrl()
    },
    /** Runs `cleanup` after the test, before what was deferred earlier. */
    defer(cleanup: () => unknown) {
      cleanups.push(cleanup)
    },
    /** `pairlink-wallet` with `args` as a child process, stopped after the test. */
    wallet,
    /** `pairlink-wallet --uri <uri> --approve --auto-sign` on the anvil and the relay, then `extra`. */
    approving(uri: string, extra: string[] = []): WalletProcess {
      return wallet([
        '--uri',
        uri,
        '--approve',
        '--auto-sign',
        '--rpc-url',
        started(anvil).url,
        '--relay-url',
        relayUrl(),
        ...extra,
      ])
    },
    /**
     * A published sign-client (2.25.0) dapp named `name` on the relay (or on `relay`), its socket closed after the
     * test.
     */
    async createSdkDapp(
      name: string,
      relay = { relayUrl: relayUrl(), projectId: '0123456789abcdef0123456789abcdef' },
    ) {
      const dapp = await SignClient.init({
        ...relay,
        customStoragePrefix: `cli-dapp-${randomUUID()}`,
        logger: 'silent',
        metadata: { name, description: 'a dapp in a test', url: 'https://dapp.test', icons: [] },
      })
      cleanups.push(async () => {
        dapp.core.heartbeat.stop()
        await dapp.core.relayer.transportClose().catch(() => {})
      })
      return dapp
    },
  }
}
