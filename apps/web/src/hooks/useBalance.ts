import { useEffect, useState } from 'react'
import type { PublicClient } from 'viem'

/**
 * An address's balance in wei, read again at every new block. `undefined` until the first read (or with no
 * address); a failed read keeps the last known value, as the RPC banner already tells the person why.
 *
 * @example
 * const balance = useBalance(publicClient, address, block.number)
 */
export function useBalance(
  publicClient: PublicClient,
  address: `0x${string}` | undefined,
  blockNumber: bigint | undefined,
): bigint | undefined {
  const [balance, setBalance] = useState<{ address: string; value: bigint } | undefined>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: blockNumber is the trigger — each new block reads again.
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
  }, [publicClient, address, blockNumber])
  return balance && balance.address === address ? balance.value : undefined
}
