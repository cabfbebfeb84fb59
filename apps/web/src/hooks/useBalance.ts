import { useEffect, useState } from 'react'
import type { PublicClient } from 'viem'

/**
 * An address's balance in wei, read again whenever `trigger` changes (the settled head for the account, a
 * settled payment for its recipient): never on a timer of its own. `undefined` until the first read (or with no
 * address); a failed read keeps the last known value, as the RPC banner already tells the person why.
 *
 * @example
 * const balance = useBalance(publicClient, address, block.head)
 */
export function useBalance(
  publicClient: PublicClient,
  address: `0x${string}` | undefined,
  trigger: unknown,
): bigint | undefined {
  const [balance, setBalance] = useState<{ address: string; value: bigint } | undefined>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: trigger is the point — each change reads again.
  useEffect(() => {
    if (!address) return
    let live = true
    publicClient.getBalance({ address }).then(
      (value) => {
        if (live) setBalance({ address, value })
      },
      () => {},
    )
    return () => {
      live = false
    }
  }, [publicClient, address, trigger])
  return balance && balance.address === address ? balance.value : undefined
}
