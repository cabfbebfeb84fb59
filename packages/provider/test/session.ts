import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID, startAnvil } from '@pairlink/test-kit/anvil'
import { createProvider, type Provider } from '../src/createProvider.js'
import { startBridge } from './bridge.js'
import { startTestWallet } from './wallet.js'

/**
 * Everything a consumer test needs, all real: anvil, the bridge, and a modal that hands the `wc:` URI to a test
 * wallet (our client in the wallet role) the moment the dapp shows it, as a person scanning the QR code would.
 */
export async function startStack() {
  const anvil = await startAnvil({ blockTime: 1 })
  const bridge = await startBridge()
  const wallets: ReturnType<typeof startTestWallet>[] = []
  const modal = {
    open(uri: string) {
      wallets.push(startTestWallet({ uri, rpcUrl: anvil.url, privateKey: ANVIL_ACCOUNT.privateKey }))
    },
    close() {},
  }
  return {
    anvil,
    bridge,
    modal,
    chainId: ANVIL_CHAIN_ID,
    /** Our provider on this stack: its bridge, its modal (which hands the URI to the wallet), its chain, 500 ms polls. */
    provider(): Provider {
      return createProvider({
        bridge: bridge.url,
        modal,
        rpc: { [ANVIL_CHAIN_ID]: anvil.url },
        chainId: ANVIL_CHAIN_ID,
        pollingInterval: 500,
      })
    },
    /** The wallet of the latest session. */
    get wallet() {
      const wallet = wallets.at(-1)
      if (!wallet) throw new Error('no wallet yet')
      return wallet
    },
    async stop() {
      for (const wallet of wallets) wallet.close()
      await bridge.stop()
      await anvil.stop()
    },
  }
}
