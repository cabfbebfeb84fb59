import type { Provider } from '@pairlink/provider'
import { useEffect, useState } from 'react'
import { describeError } from '../describeError.js'

/** Return type of {@link useBlock}. */
export type BlockState = {
  /** The latest block number seen by polling. */
  number: bigint | undefined
  /** Set while polling fails (RPC node unreachable); cleared by the next block. */
  error: string | undefined
}

/**
 * The latest block, live from the provider's block polling (`eth_getBlockByNumber('latest')`). Polls only while
 * `enabled`: a listener on `block` is what keeps the provider polling.
 *
 * @example
 * const { number } = useBlock(provider, status === 'connected')
 */
export function useBlock(provider: Provider, enabled: boolean): BlockState {
  const [state, setState] = useState<BlockState>({ number: undefined, error: undefined })
  useEffect(() => {
    if (!enabled) return
    const onBlock = (block: { number: string }) =>
      setState({ number: BigInt(block.number), error: undefined })
    const onError = (error: Error) =>
      setState((current) => ({ ...current, error: describeError(error, 'read') }))
    provider.on('block', onBlock)
    provider.on('error', onError)
    return () => {
      provider.removeListener('block', onBlock)
      provider.removeListener('error', onError)
    }
  }, [provider, enabled])
  return state
}
