import type { DecodedRequest } from '../../core/decodeRequest.js'
import type { WalletMethod } from '../../core/namespaces.js'
import { type MessageKey, t } from '../../i18n/i18n.js'

// The core's titles are English (the CLI prints them); the page says them in its language, by method: every method
// the wallet signs or answers has one.
const TITLES: Readonly<Record<string, MessageKey>> = {
  personal_sign: 'title_sign_message',
  eth_sign: 'title_eth_sign',
  eth_signTypedData: 'title_typed_data',
  eth_signTypedData_v3: 'title_typed_data',
  eth_signTypedData_v4: 'title_typed_data',
  eth_sendTransaction: 'title_send_transaction',
  eth_signTransaction: 'title_sign_transaction',
  wallet_switchEthereumChain: 'title_switch_chain',
  wallet_addEthereumChain: 'title_add_chain',
  eth_accounts: 'title_share_address',
  eth_requestAccounts: 'title_share_address',
  eth_chainId: 'title_share_chain',
  net_version: 'title_share_chain',
} satisfies Record<WalletMethod, MessageKey>

/**
 * A request's title in the page's language: what a decoded request (or an activity entry, by its method) asks for;
 * the core's English `title` for a method the page does not name.
 *
 * @example
 * requestTitle({ method: 'personal_sign', title: 'Sign message' }) // 'Nachricht signieren' in a German browser
 */
export function requestTitle(request: Pick<DecodedRequest, 'method' | 'title'> & { kind?: string }): string {
  if (request.kind === 'unsupported') return t('title_unsupported')
  const key = TITLES[request.method]
  return key ? t(key) : request.title
}
