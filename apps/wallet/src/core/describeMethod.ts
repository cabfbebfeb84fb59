/** What each method a dapp may be granted lets it do, in words for the person (EIP-5573 ReCaps, proposals). */
const METHOD_WORDS: Readonly<Record<string, string>> = {
  personal_sign: 'Sign messages',
  eth_sign: 'Sign raw hashes',
  eth_signTypedData: 'Sign typed data',
  eth_signTypedData_v3: 'Sign typed data',
  eth_signTypedData_v4: 'Sign typed data',
  eth_sendTransaction: 'Send transactions',
  eth_signTransaction: 'Sign transactions',
  wallet_switchEthereumChain: 'Switch networks',
  wallet_addEthereumChain: 'Add networks',
  eth_accounts: 'See your address',
  eth_requestAccounts: 'See your address',
  eth_chainId: 'See the network',
  net_version: 'See the network',
}

/**
 * A method a dapp asks to call, in words with its name; a method without words is named alone.
 *
 * @example
 * describeMethod('personal_sign') // 'Sign messages (personal_sign)'
 * describeMethod('wallet_getCallsStatus') // 'wallet_getCallsStatus'
 */
export function describeMethod(method: string): string {
  const words = Object.hasOwn(METHOD_WORDS, method) ? METHOD_WORDS[method] : undefined
  return words ? `${words} (${method})` : method
}
