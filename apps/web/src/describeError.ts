/** What the person was doing when an error happened; the same code reads differently per action. */
export type ErrorContext = 'connect' | 'request' | 'switchChain' | 'payment' | 'read'

/** The v1 text a client's connect rejects with when the person closes the QR modal (reference §5.1). */
const MODAL_CLOSED_TEXTS = ['User close QRCode Modal', 'User closed modal']

type ErrorLike = {
  name?: unknown
  code?: unknown
  message?: unknown
  shortMessage?: unknown
  cause?: unknown
}

/** The error and every `cause` under it (viem wraps the provider's error one or two levels deep). */
function chainOf(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = []
  let current: unknown = error
  // Bounded: a cause cycle must not hang the page.
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    chain.push(current as ErrorLike)
    current = (current as ErrorLike).cause
  }
  return chain
}

/**
 * The plain-language message shown for an error of the client, the provider or viem. Classes and EIP-1193 codes
 * decide, never the wallet's own wording, which differs from wallet to wallet.
 *
 * @example
 * describeError(new ModalClosedError('User close QRCode Modal'), 'connect') // 'You closed the QR window…'
 */
export function describeError(error: unknown, context: ErrorContext = 'request'): string {
  const chain = chainOf(error)
  const has = (test: (e: ErrorLike) => boolean) => chain.some(test)
  const named = (...names: string[]) => has((e) => typeof e.name === 'string' && names.includes(e.name))
  const coded = (code: number) => has((e) => e.code === code)
  const says = (pattern: RegExp) => has((e) => typeof e.message === 'string' && pattern.test(e.message))

  if (named('ModalClosedError') || has((e) => MODAL_CLOSED_TEXTS.includes(String(e.message)))) {
    return 'You closed the QR window before a wallet connected. Press Connect wallet to try again.'
  }
  if (named('SessionRejectedError') || (context === 'connect' && coded(4001))) {
    return 'The wallet rejected the connection.'
  }
  if (named('RequestTimeoutError'))
    return 'The wallet did not answer in time. Check the wallet and try again.'
  if (coded(4902)) return 'The wallet does not know this chain, so it stayed where it was.'
  if (context === 'switchChain' && (coded(4001) || coded(4901))) {
    return 'The wallet refused to switch to this chain. It stays on the current one.'
  }
  if (coded(4001)) return 'The wallet rejected the request.'
  if (coded(4900) || named('SessionError', 'DisconnectedError')) {
    return 'The wallet is disconnected. Connect it again to continue.'
  }
  if (coded(4901)) return 'The wallet is on another chain than this request needs.'
  if (coded(4100)) return 'The wallet has not shared this account with the app.'
  if (coded(4200)) return 'The wallet does not support this request.'
  if (named('InsufficientFundsError') || says(/insufficient funds/i)) {
    return 'Not enough ETH to pay this amount plus the network fee.'
  }
  if (named('InvalidAddressError')) return 'That is not a valid address.'
  if (named('HttpRequestError', 'TimeoutError') || says(/failed to fetch|fetch failed|networkerror/i)) {
    return 'The RPC node is unreachable. Retrying…'
  }
  if (named('BlockNotFoundError')) return 'The RPC node has not produced the latest block yet. Retrying…'
  if (named('ClientClosedError')) return 'The connection was closed. Reload the page to continue.'
  const first = chain[0]
  const text = typeof first?.shortMessage === 'string' ? first.shortMessage : String(first?.message ?? error)
  return `Something went wrong: ${text.split('\n')[0]}`
}

/**
 * The message for a session that ended: the person pressed Disconnect here, or the wallet ended it.
 *
 * @example
 * describeDisconnect(false) // 'The wallet disconnected. …'
 */
export function describeDisconnect(byUser: boolean): string {
  return byUser
    ? 'You disconnected the wallet.'
    : 'The wallet disconnected. Press Connect wallet to pair again.'
}
