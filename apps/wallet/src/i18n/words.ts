import { getChainName } from '../core/chains.js'
import { type MessageKey, t } from './i18n.js'

const DEV_CHAIN = 31337

/**
 * A chain's name for people, with its id, in the page's language (the dev chain's is translated; the others are
 * names); the core's `formatChain` is the CLI's English one.
 *
 * @example
 * formatChain(31337) // 'Anvil-Entwicklungs-Chain (31337)' in a German browser
 */
export function formatChain(chainId: number): string {
  return chainId === DEV_CHAIN ? `${t('dev_chain')} (${chainId})` : formatOther(chainId)
}

function formatOther(chainId: number): string {
  const name = getChainName(chainId)
  return name === `Chain ${chainId}` ? name : `${name} (${chainId})`
}

const METHOD_WORDS: Readonly<Record<string, MessageKey>> = {
  personal_sign: 'method_sign_messages',
  eth_sign: 'method_sign_hashes',
  eth_signTypedData: 'method_sign_typed',
  eth_signTypedData_v3: 'method_sign_typed',
  eth_signTypedData_v4: 'method_sign_typed',
  eth_sendTransaction: 'method_send_tx',
  eth_signTransaction: 'method_sign_tx',
  wallet_switchEthereumChain: 'method_switch',
  wallet_addEthereumChain: 'method_add',
  eth_accounts: 'method_see_address',
  eth_requestAccounts: 'method_see_address',
  eth_chainId: 'method_see_network',
  net_version: 'method_see_network',
}

/**
 * A method a dapp asks to call, in the page's words with its name; a method without words is named alone.
 *
 * @example
 * describeMethod('personal_sign') // 'Nachrichten signieren (personal_sign)' in a German browser
 */
export function describeMethod(method: string): string {
  const key = Object.hasOwn(METHOD_WORDS, method) ? METHOD_WORDS[method] : undefined
  return key ? `${t(key)} (${method})` : method
}
