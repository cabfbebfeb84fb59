import { WALLETCONNECT_EXPLORER_URL } from '@pairlink/protocol/v2'
import { EXPLORER_ENTRIES, EXPLORER_SDK } from '../constants.js'

/** Where the modal's wallet list comes from (see {@link resolveRegistry}). */
export type RegistrySource = {
  /** The URL the list is fetched from. */
  url: string
  /** Set when it is WalletConnect's explorer: its logos are addressed by `image_id` under this URL and project. */
  explorer?: Explorer | undefined
}

/** WalletConnect's wallet explorer as the modal reads it: its base URL and the project id it asks with. */
export type Explorer = { url: string; projectId: string }

/** Parameters of {@link resolveRegistry}: the modal's options that name a wallet list. */
export type ResolveRegistryParameters = {
  registryUrl?: string | undefined
  projectId?: string | undefined
  explorerUrl?: string | undefined
}

/**
 * Picks the modal's wallet list: `registryUrl` as given (a `{ listings }` document such as the Pairlink server's
 * `/registry/wallets.json`, or the explorer's `{ data }` answer); else, with a `projectId`, WalletConnect's explorer
 * (`GET {explorerUrl}/getWallets?projectId&page=1&entries&st&sv`); else none — the retired
 * `registry.walletconnect.com` (shut down in January 2024) is never a default — and the modal then offers no list.
 *
 * @example
 * resolveRegistry({ projectId: 'c0ffee…' })?.url // 'https://api.web3modal.org/getWallets?projectId=c0ffee…&page=1&…'
 */
export function resolveRegistry(parameters: ResolveRegistryParameters): RegistrySource | undefined {
  const explorerUrl = (parameters.explorerUrl || WALLETCONNECT_EXPLORER_URL).replace(/\/+$/, '')
  const { projectId } = parameters
  const explorer = projectId ? { url: explorerUrl, projectId } : undefined
  if (parameters.registryUrl) return { url: parameters.registryUrl, explorer }
  if (!explorer) return undefined
  const query = new URLSearchParams({
    projectId: explorer.projectId,
    page: '1',
    entries: String(EXPLORER_ENTRIES),
    st: EXPLORER_SDK.type,
    sv: EXPLORER_SDK.version,
  })
  return { url: `${explorerUrl}/getWallets?${query}`, explorer }
}

/** The address of an explorer wallet's logo (`GET {explorer}/getWalletImage/{image_id}`), as the explorer asks. */
export function explorerImageUrl(explorer: Explorer, imageId: string): string {
  const query = new URLSearchParams({
    projectId: explorer.projectId,
    st: EXPLORER_SDK.type,
    sv: EXPLORER_SDK.version,
  })
  return `${explorer.url}/getWalletImage/${encodeURIComponent(imageId)}?${query}`
}
