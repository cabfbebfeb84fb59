import type { ChosenWallet } from './modalAdapter.js'

/**
 * The person chose a browser wallet (EIP-6963) in the modal `pairlink()` opened, instead of pairing by QR code: the
 * connector's `connect` rejects with this error, carrying the wallet. Connect it with wagmi's connector of that
 * `rdns` (wagmi's `multiInjectedProviderDiscovery`, on by default, makes one per announced wallet, with the `rdns` as
 * its `id`), or with `injected({ target: () => ({ id: rdns, name, provider }) })`.
 *
 * @example
 * catch (error) {
 *   if (error instanceof InjectedWalletChosenError)
 *     await connect(config, { connector: config.connectors.find((c) => c.id === error.rdns)! })
 * }
 */
export class InjectedWalletChosenError extends Error {
  static readonly code = 'ERR_INJECTED_WALLET_CHOSEN'
  readonly code = InjectedWalletChosenError.code
  override name = 'InjectedWalletChosenError'
  /** The wallet's reverse-DNS name (`io.metamask`): the `id` of wagmi's connector for it. */
  readonly rdns: string
  /** The wallet as it announced itself: `info` (`name`, `icon`, `rdns`, `uuid`) and its EIP-1193 `provider`. */
  readonly wallet: ChosenWallet

  constructor(wallet: ChosenWallet, options?: { cause?: unknown }) {
    super(`The person chose the browser wallet ${wallet.info.name} (${wallet.info.rdns})`, options)
    this.wallet = wallet
    this.rdns = wallet.info.rdns
  }
}
