import { formatEther } from 'viem'
import { formatNumber, getLanguage, t } from './i18n/i18n.js'

/** The dev chain (anvil), named in the page's language. */
const DEV_CHAIN = 31337

/** Chains by their own names, which no language translates (the dev chain's is said in the page's language). */
const CHAINS: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  11155111: 'Sepolia',
  [DEV_CHAIN]: 'Anvil dev chain',
}

/**
 * A chain's name for people, with its id.
 *
 * @example
 * formatChain(31337) // 'Anvil dev chain (31337)'
 */
export function formatChain(chainId: number): string {
  const name = chainId === DEV_CHAIN ? t('dev_chain') : CHAINS[chainId]
  return name ? `${name} (${chainId})` : t('chain_unknown', { id: chainId })
}

/** The chains the switch menu offers, the app's own chain first. */
export function listChains(current: number): number[] {
  return [current, ...Object.keys(CHAINS).map(Number)].filter((id, index, all) => all.indexOf(id) === index)
}

/**
 * A wei amount as ETH with at most `digits` decimals, rounded down so a balance is never overstated.
 *
 * @example
 * formatBalance(10_000_000_000_000_000_000_000n) // '10,000 ETH'
 */
export function formatBalance(wei: bigint, digits = 4): string {
  const [whole = '0', fraction = ''] = formatEther(wei).split('.')
  const trimmed = fraction.slice(0, digits).replace(/0+$/, '')
  // Grouped and pointed as the page's language writes numbers; digits are cut, never rounded up, so not by Intl.
  const grouped = formatNumber(BigInt(whole))
  const point = new Intl.NumberFormat(getLanguage())
    .formatToParts(0.5)
    .find((part) => part.type === 'decimal')
  return `${grouped}${trimmed ? `${point?.value ?? '.'}${trimmed}` : ''} ETH`
}

/**
 * `0x1234…abcd`, for places too narrow for the whole address.
 *
 * @example
 * shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf39F…2266'
 */
export function shortenAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}
