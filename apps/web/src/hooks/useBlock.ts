import { BLOCK_POLLING_INTERVAL_MS, type Provider } from '@pairlink/provider'
import { useEffect, useState } from 'react'
import { describeError } from '../describeError.js'

/**
 * How long after a block the app waits for more before reading what depends on the head: one poll that catches up
 * on several blocks (the provider fetches each missed block) then costs one balance read, not one per block.
 */
export const HEAD_SETTLE_MS = 250

/** How many polling intervals without a new block before the app asks the node whether its head went backwards. */
export const STALL_INTERVALS = 3

/** The node's head went back (a restarted dev node, a replaced chain): from the newest seen to the node's head. */
export type Rewind = { from: bigint; to: bigint }

/** Return type of {@link useBlock}. */
export type BlockState = {
  /** The latest block number seen by polling. */
  number: bigint | undefined
  /**
   * The newest block once the blocks of one poll have all arrived: what reads that follow the chain (balances)
   * key on, so they run once per poll at most.
   */
  head: bigint | undefined
  /** Set while polling fails (RPC node unreachable); cleared by the next block. */
  error: string | undefined
  /** Set while the node's head is below the newest block seen; the app follows the node's new chain meanwhile. */
  rewind: Rewind | undefined
}

/** Parameters of {@link useBlock}. */
export type UseBlockParameters = {
  /** The chain being followed: another chain starts afresh (its lower numbers are no rewind). */
  chainId?: number | undefined
  /**
   * The provider's polling interval, for the stall check.
   * @default BLOCK_POLLING_INTERVAL_MS
   */
  pollingInterval?: number | undefined
}

const EMPTY: BlockState = { number: undefined, head: undefined, error: undefined, rewind: undefined }

/**
 * The latest block, live from the provider's block polling (`eth_getBlockByNumber('latest')`). Polls only while
 * `enabled`: a listener on `block` is what keeps the provider polling. The provider never reports a block below
 * the newest it saw, so after {@link STALL_INTERVALS} quiet intervals the hook asks `eth_blockNumber` once; a
 * lower head (the node restarted from block 0) is reported as a {@link Rewind} and followed, one
 * `eth_blockNumber` per interval, until the provider's blocks pass the old head again.
 *
 * @example
 * const { number, head, rewind } = useBlock(provider, status === 'connected')
 */
export function useBlock(
  provider: Provider,
  enabled: boolean,
  parameters: UseBlockParameters = {},
): BlockState {
  const interval = parameters.pollingInterval ?? BLOCK_POLLING_INTERVAL_MS
  const { chainId } = parameters
  const [state, setState] = useState<BlockState>(EMPTY)
  // biome-ignore lint/correctness/useExhaustiveDependencies: chainId is the trigger — another chain starts afresh.
  useEffect(() => {
    if (!enabled) return
    let live = true
    let current: bigint | undefined
    let rewind: Rewind | undefined
    let lastChange = Date.now()
    let settle: ReturnType<typeof setTimeout> | undefined
    let check: ReturnType<typeof setTimeout> | undefined

    const publish = (patch: Partial<BlockState>) =>
      live && setState((previous) => ({ ...previous, ...patch }))
    const see = (number: bigint) => {
      current = number
      lastChange = Date.now()
      publish({ number, error: undefined, rewind })
      clearTimeout(settle)
      settle = setTimeout(() => publish({ head: number }), HEAD_SETTLE_MS)
    }
    const onBlock = (block: { number: string }) => {
      const number = BigInt(block.number)
      if (current !== undefined && number < current && !rewind) rewind = { from: current, to: number }
      if (rewind && number > rewind.from) rewind = undefined
      else if (rewind) rewind = { ...rewind, to: number }
      see(number)
    }
    const onError = (error: Error) => publish({ error: describeError(error, 'read') })

    const hidden = () => (globalThis as { document?: Document }).document?.visibilityState === 'hidden'
    const schedule = () => {
      check = setTimeout(() => void stallCheck().finally(() => live && schedule()), interval)
    }
    async function stallCheck() {
      if (current === undefined || hidden()) return
      if (!rewind && Date.now() - lastChange < interval * STALL_INTERVALS) return
      const answer = await provider.request({ method: 'eth_blockNumber' }).catch(() => undefined)
      if (!live || typeof answer !== 'string' || current === undefined) return
      const head = BigInt(answer)
      if (rewind ? head === current : head >= current) {
        // A quiet chain (no blocks for a while) is asked again only after another stall, not every interval.
        lastChange = Date.now()
        return
      }
      rewind = rewind ? { ...rewind, to: head } : { from: current, to: head }
      see(head)
    }

    provider.on('block', onBlock)
    provider.on('error', onError)
    schedule()
    return () => {
      live = false
      clearTimeout(settle)
      clearTimeout(check)
      provider.removeListener('block', onBlock)
      provider.removeListener('error', onError)
      setState(EMPTY)
    }
  }, [provider, enabled, interval, chainId])
  return state
}
