import { RegistryError } from '../errors.js'
import type { Wallet } from './formatDeepLink.js'
import { parseRegistry } from './parseRegistry.js'
import type { Explorer } from './resolveRegistry.js'

/** Parameters of {@link fetchRegistry}. */
export type FetchRegistryParameters = {
  /**
   * The wallet list: a registry answering `{ listings, count }` (the Pairlink server's `/registry/wallets.json`) or
   * WalletConnect's explorer answering `{ data }` (see `resolveRegistry`).
   */
  url: string
  /** WalletConnect's explorer and project, for the logos of an explorer answer (`image_id`). */
  explorer?: Explorer | undefined
  /** Which links to read from each entry. */
  side: 'mobile' | 'desktop'
  /** The `fetch` to use (a seam for tests and for hosts that proxy requests). @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /** Aborts the request when the modal closes. */
  signal?: AbortSignal | undefined
}

/**
 * Fetches the wallet registry and returns the wallets with a link on `side`. Every failure (network, HTTP status,
 * not JSON, wrong shape) is a {@link RegistryError}.
 *
 * @example
 * const wallets = await fetchRegistry({ url: '/registry/wallets.json', side: 'mobile' })
 */
export async function fetchRegistry(parameters: FetchRegistryParameters): Promise<Wallet[]> {
  const { url } = parameters
  const doFetch = parameters.fetch ?? globalThis.fetch
  let data: unknown
  try {
    const response = await doFetch(url, parameters.signal ? { signal: parameters.signal } : undefined)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    data = await response.json()
  } catch (cause) {
    throw new RegistryError('Wallet registry could not be fetched', { cause, details: url })
  }
  return parseRegistry(data, parameters.side, parameters.explorer)
}
