import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import {
  type AttachBridgeReturnType,
  attachBridge,
  createBridge,
  createRelay,
  type Relay,
  type RelayUpgradeAttempt,
} from '@pairlink/bridge'
import { WALLETCONNECT_EXPLORER_URL, WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import { createTestCertificate } from './testCertificate.js'
import { createExplorerStandIn, type ExplorerRequest } from './walletConnectExplorer.js'

export type { RelayUpgradeAttempt } from '@pairlink/bridge'
export type { ExplorerRequest } from './walletConnectExplorer.js'
export { WALLETCONNECT_TEST_WALLETS, type WcWallet } from './walletConnectWallets.js'

/** Parameters of {@link startWalletConnectNetwork}. */
export type StartWalletConnectNetworkParameters = {
  /** Project id → the page origins allowed for it (`[]`: any), as in WalletConnect's dashboard. */
  projects: Readonly<Record<string, readonly string[]>>
  /** Longest message per tag. @default { 1109: 98304 } (the one limit observed on the hosted relay) */
  maxMessageLengthByTag?: Readonly<Record<number, number>> | undefined
}

/** Return type of {@link startWalletConnectNetwork}. */
export type WalletConnectNetwork = {
  /** `wss://relay.walletconnect.org`: the real name, reachable in a Chromium started with `chromiumArgs`. */
  relayUrl: string
  /** Port of the relay over TLS. */
  relayPort: number
  /** `wss://127.0.0.1:{relayPort}` (its certificate is {@link WalletConnectNetwork.certificate}). */
  localRelayUrl: string
  /** `ws://127.0.0.1:{port}`: the same relay without TLS, for Node clients (the published SDKs take no CA). */
  plainRelayUrl: string
  /** `https://api.web3modal.org`: the explorer's real name, reachable in a Chromium started with `chromiumArgs`. */
  explorerUrl: string
  /** Port of the explorer over TLS. */
  explorerPort: number
  /** `https://127.0.0.1:{explorerPort}`. */
  localExplorerUrl: string
  /** `http://127.0.0.1:{port}`: the explorer without TLS, for a server under test that cannot be given a CA. */
  plainExplorerUrl: string
  /** Chromium flags mapping the real names to the stand-ins and accepting the test certificate. */
  chromiumArgs: string[]
  /** The run's self-signed certificate (PEM), for clients that can be given a CA. */
  certificate: string
  /** Every v2 upgrade attempt on either relay port, oldest first (no tokens). */
  upgrades: RelayUpgradeAttempt[]
  /** Every explorer request, oldest first. */
  explorerRequests: ExplorerRequest[]
  /** The relay (its `counts`). */
  relay: Relay
  /** `fail(true)`: every explorer request answers 500 until `fail(false)`. */
  fail(failing: boolean): void
  /** Stops every server and socket. */
  close(): Promise<void>
}

const RELAY_NAMES = ['relay.walletconnect.org', 'relay.walletconnect.com']
const EXPLORER_NAME = new URL(WALLETCONNECT_EXPLORER_URL).hostname

/**
 * Starts a stand-in for WalletConnect's network on 127.0.0.1: Pairlink's relay with the hosted relay's rules on (the
 * given projects and their allowed origins, refusals as close 3000 with the hosted relay's reasons, `aud` exactly one
 * of its URLs, request ids ≥ 10^9, per-tag size limits) over TLS and over plain ws, and a wallet explorer over TLS
 * and plain http. The certificate is made at run time with `openssl`.
 *
 * @example
 * const network = await startWalletConnectNetwork({ projects: { [projectId]: [] } })
 * const dapp = await SignClient.init({ projectId, relayUrl: network.plainRelayUrl })
 * afterAll(() => network.close())
 */
export async function startWalletConnectNetwork(
  parameters: StartWalletConnectNetworkParameters,
): Promise<WalletConnectNetwork> {
  const { cert, key } = await createTestCertificate([...RELAY_NAMES, EXPLORER_NAME, 'localhost', '127.0.0.1'])
  const upgrades: RelayUpgradeAttempt[] = []
  const explorer = createExplorerStandIn(new Set(Object.keys(parameters.projects)))
  const bridge = createBridge({ maxConnectionsPerIp: 0 })
  const relay = createRelay({
    projects: parameters.projects,
    refusal: 'close',
    minRequestId: 1_000_000_000,
    maxMessageLengthByTag: parameters.maxMessageLengthByTag ?? { 1109: 98_304 },
  })
  const servers: Server[] = []
  const attached: AttachBridgeReturnType[] = []
  const stop = async () => {
    await Promise.all(attached.map((one) => one.close()))
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve())
            server.closeAllConnections()
          }),
      ),
    )
    await Promise.all([relay.close(), bridge.close()])
  }
  try {
    await Promise.all([bridge.start(), relay.start()])
    const listen = async (server: Server) => {
      servers.push(server)
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(0, '127.0.0.1', () => resolve())
      })
      return (server.address() as AddressInfo).port
    }
    const tls = { cert, key }
    const handle: RequestListener = (request, response) => explorer.handle(request, response)
    const relayTls = createHttpsServer(tls)
    const relayPlain = createHttpServer()
    const [relayPort, plainRelayPort, explorerPort, plainExplorerPort] = await Promise.all([
      listen(relayTls),
      listen(relayPlain),
      listen(createHttpsServer(tls, handle)),
      listen(createHttpServer(handle)),
    ])
    const localRelayUrl = `wss://127.0.0.1:${relayPort}`
    const plainRelayUrl = `ws://127.0.0.1:${plainRelayPort}`
    const relayUrls = [
      WALLETCONNECT_RELAY_URL,
      ...RELAY_NAMES.map((name) => `wss://${name}`),
      localRelayUrl,
      plainRelayUrl,
      `wss://localhost:${relayPort}`,
      `ws://localhost:${plainRelayPort}`,
    ]
    for (const server of [relayTls, relayPlain])
      attached.push(
        attachBridge(server, bridge, {
          relay,
          relayUrls: [...new Set(relayUrls)],
          strictAudience: true,
          onRelayUpgrade: (attempt) => upgrades.push(attempt),
        }),
      )
    const rules = [
      ...RELAY_NAMES.map((name) => `MAP ${name} 127.0.0.1:${relayPort}`),
      `MAP ${EXPLORER_NAME} 127.0.0.1:${explorerPort}`,
    ]
    let closing: Promise<void> | undefined
    return {
      relayUrl: WALLETCONNECT_RELAY_URL,
      relayPort,
      localRelayUrl,
      plainRelayUrl,
      explorerUrl: WALLETCONNECT_EXPLORER_URL,
      explorerPort,
      localExplorerUrl: `https://127.0.0.1:${explorerPort}`,
      plainExplorerUrl: `http://127.0.0.1:${plainExplorerPort}`,
      chromiumArgs: [`--host-resolver-rules=${rules.join(', ')}`, '--ignore-certificate-errors'],
      certificate: cert,
      upgrades,
      explorerRequests: explorer.requests,
      relay,
      fail: explorer.fail,
      close: () => {
        closing ??= stop()
        return closing
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}
