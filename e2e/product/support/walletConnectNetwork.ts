import { startWalletConnectNetwork, type WalletConnectNetwork } from '@pairlink/test-kit/walletconnect'
import { type Browser, chromium } from '@playwright/test'
import { chromiumLaunch } from '../../chromium.mjs'
import { startTwoDevices, type TwoDevices } from './twoDevices.js'

/** A project id the stand-in knows, with an empty allow-list (any origin), as a new dashboard project. */
export const KNOWN_PROJECT_ID = '0123456789abcdef0123456789abcdef'
/** A well-formed project id (32 hex) the stand-in has never heard of: "Project not found". */
export const UNKNOWN_PROJECT_ID = 'deadbeefdeadbeefdeadbeefdeadbeef'
/** A project id the stand-in knows whose allowed domains hold only another site's origin. */
export const RESTRICTED_PROJECT_ID = 'fedcba9876543210fedcba9876543210'
/** The one origin {@link RESTRICTED_PROJECT_ID} allows: never the page's. */
const RESTRICTED_ALLOWED_ORIGIN = 'https://elsewhere.example'

/** The stand-in's projects used by the specs: {@link KNOWN_PROJECT_ID} and {@link RESTRICTED_PROJECT_ID}. */
export const startNetwork = (): Promise<WalletConnectNetwork> =>
  startWalletConnectNetwork({
    projects: { [KNOWN_PROJECT_ID]: [], [RESTRICTED_PROJECT_ID]: [RESTRICTED_ALLOWED_ORIGIN] },
  })

/**
 * A Chromium of the spec's own, launched with the house flags plus the stand-in's (its real names mapped to it, its
 * certificate accepted). `extraRules` adds `--host-resolver-rules` entries (e.g. `MAP dapp.example 127.0.0.1`) to the
 * stand-in's: Chromium reads only one such flag.
 */
export function launchOnNetwork(network: WalletConnectNetwork, extraRules: string[] = []): Promise<Browser> {
  const prefix = '--host-resolver-rules='
  const args = network.chromiumArgs.map((arg) =>
    arg.startsWith(prefix) && extraRules.length > 0 ? `${arg}, ${extraRules.join(', ')}` : arg,
  )
  return chromium.launch({
    executablePath: chromiumLaunch.executablePath,
    args: [...chromiumLaunch.args, ...args],
  })
}

/**
 * The server's environment for WalletConnect's network: the project id, the relay left at its default
 * (`wss://relay.walletconnect.org`, the real name the page reaches through the stand-in; the server's own start-up
 * probe cannot resolve it offline and only warns) and the stand-in's explorer over plain http.
 */
export const networkEnv = (network: WalletConnectNetwork, projectId = KNOWN_PROJECT_ID) => ({
  WALLETCONNECT_PROJECT_ID: projectId,
  WALLETCONNECT_EXPLORER_URL: network.plainExplorerUrl,
})

/** {@link TwoDevices} on the stand-in, with the network and the browser of their own. */
export type NetworkDevices = TwoDevices & { network: WalletConnectNetwork; browser: Browser }

/**
 * Starts the stand-in, a Chromium on it and the product with {@link KNOWN_PROJECT_ID}, then the two devices (the web
 * app's and the wallet's contexts) in that browser: a starter for `withTwoDevices` that ignores the fixture's
 * browser. `stop()` closes the devices, the browser, then the stand-in.
 */
export async function startTwoDevicesOnNetwork(): Promise<NetworkDevices> {
  const network = await startNetwork()
  let browser: Browser | undefined
  try {
    browser = await launchOnNetwork(network)
    const devices = await startTwoDevices(browser, networkEnv(network))
    const opened = browser
    return {
      ...devices,
      network,
      browser: opened,
      async stop() {
        await devices.stop()
        await opened.close()
        await network.close()
      },
    }
  } catch (error) {
    await browser?.close()
    await network.close()
    throw error
  }
}

/** The stand-in's upgrade attempts that came from pages of `origin` (the browser's `Origin` header). */
export const upgradesFrom = (network: WalletConnectNetwork, origin: string) =>
  network.upgrades.filter((attempt) => attempt.origin === origin)
