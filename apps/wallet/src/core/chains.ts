import { type Chain, defineChain } from 'viem'

/**
 * Names of chains a dev may meet, the same as the web app's (apps/web/src/format.ts), so a chain reads alike on both
 * sides of a session; anything else shows as `Chain {id}`.
 */
const CHAIN_NAMES: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  11155111: 'Sepolia',
  31337: 'Anvil dev chain',
}

/** The display name of a chain id. */
export function getChainName(chainId: number): string {
  return CHAIN_NAMES[chainId] ?? `Chain ${chainId}`
}

/**
 * A chain's name for people, with its id, as the web app writes it.
 *
 * @example
 * formatChain(31337) // 'Anvil dev chain (31337)'
 * formatChain(5) // 'Chain 5'
 */
export function formatChain(chainId: number): string {
  const name = CHAIN_NAMES[chainId]
  return name ? `${name} (${chainId})` : `Chain ${chainId}`
}

/**
 * A viem chain for `chainId` served by `rpcUrl`. The wallet signs for whatever chain the session is on and
 * broadcasts to the one node it was given, so the chain is built rather than looked up.
 */
export function getChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: getChainName(chainId),
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

/** A chain id as a dapp may send it (`1`, `"1"`, `"0x1"`), or `undefined` when it is none. */
export function parseChainId(value: unknown): number | undefined {
  let id: number | undefined
  if (typeof value === 'number') id = value
  else if (typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value)) id = Number.parseInt(value, 16)
  else if (typeof value === 'string' && /^[0-9]+$/.test(value)) id = Number.parseInt(value, 10)
  return id !== undefined && Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/** The chains offered in the wallet's pickers: the dev chain first, then the given ones, then the known ones. */
export function getChainOptions(...first: Array<number | null | undefined>): number[] {
  const ids = [...first, ...Object.keys(CHAIN_NAMES).map(Number)]
  return [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))]
}
