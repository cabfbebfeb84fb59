import { useEffect } from 'react'
import { useBalance } from 'wagmi'

/**
 * An address's balance in wei through wagmi's `useBalance`, read again whenever `trigger` changes (the settled head
 * for the account, a settled payment for its recipient): never on a timer of its own. `undefined` until the first
 * read (or with no address); a failed read keeps the last known value, as the RPC banner already tells the person
 * why. `scope` (the chain) is part of the query's key: another chain reads afresh.
 *
 * @example
 * const balance = useFollowedBalance(address, block.head, chainId)
 */
export function useFollowedBalance(
  address: `0x${string}` | undefined,
  trigger: unknown,
  scope?: number | undefined,
): bigint | undefined {
  // Forgotten as soon as nobody shows it: an address seen before starts from "unknown", never from a stale value.
  const { data, refetch } = useBalance({ address, scopeKey: String(scope), query: { gcTime: 0 } })
  // biome-ignore lint/correctness/useExhaustiveDependencies: trigger is the point — each change reads again.
  useEffect(() => {
    // A read already under way (the first one, on mount) answers this trigger too.
    if (address) void refetch({ cancelRefetch: false })
  }, [address, trigger, refetch])
  return data?.value
}
