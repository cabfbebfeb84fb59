import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID, startAnvil } from '@pairlink/test-kit/anvil'
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
