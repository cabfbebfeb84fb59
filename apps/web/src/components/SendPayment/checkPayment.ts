import { formatChain } from '../../format.js'
import { t } from '../../i18n/i18n.js'

/** What {@link checkPayment} looks at: the amount, the account's balance and the chains. */
export type PaymentContext = {
  value: bigint
  /** The account's balance on the app's chain; `undefined` while unknown (then the wallet decides). */
  balance: bigint | undefined
  /** The session's chain: v1's wallet's, v2's the app's choice among those the wallet approved. */
  chainId: number
  /** The chain the app's node serves. */
  appChainId: number
  /** The session's WalletConnect generation, which says who moves it back to the app's chain. @default 1 */
  protocol?: 1 | 2 | undefined
}

/**
 * Why a payment cannot go through before the wallet is asked, in plain words, or `undefined`: a session on another
 * chain than the app's, or an amount the balance cannot cover (the wallet would only fail it later).
 *
 * @example
 * checkPayment({ value: 10n ** 24n, balance: 10n ** 18n, chainId: 31337, appChainId: 31337 }) // 'Not enough ETH…'
 */
export function checkPayment(context: PaymentContext): string | undefined {
  const { value, balance, chainId, appChainId, protocol = 1 } = context
  if (chainId !== appChainId) {
    const values = { chain: formatChain(chainId), app: formatChain(appChainId) }
    // Over v2 the app, not the wallet, moves the session back (Switch chain, among the chains the wallet approved).
    return t(protocol === 2 ? 'pay_off_chain_v2' : 'pay_off_chain_v1', values)
  }
  // The amount alone at or above the balance leaves nothing for the network fee.
  if (balance !== undefined && value >= balance) return t('insufficient_funds')
  return undefined
}
