import { DEFAULT_REGISTRY_URL } from '../constants.js'
import { RegistryError } from '../errors.js'
import type { Wallet } from './formatDeepLink.js'
import { parseRegistry } from './parseRegistry.js'

/** Parameters of {@link fetchRegistry}. */
export type FetchRegistryParameters = {
  /**
   * Registry URL answering the v2 shape `{ listings, count }`.
   * @default 'https://registry.walletconnect.com/api/v2/wallets'
   */
  url?: string | undefined
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
  const url = parameters.url ?? DEFAULT_REGISTRY_URL
  const doFetch = parameters.fetch ?? globalThis.fetch
  let data: unknown
  try {
    const response = await doFetch(url, parameters.signal ? { signal: parameters.signal } : undefined)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    data = await response.json()
  } catch (cause) {
    throw new RegistryError('Wallet registry could not be fetched', { cause, details: url })
  }
  return parseRegistry(data, parameters.side)
}
