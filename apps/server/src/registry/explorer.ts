import { isWcWallet, type WcWallet } from './toListing.js'

/** Where and as whom the server asks WalletConnect's explorer. */
export type ExplorerParameters = {
  /** The explorer's base URL (`WALLETCONNECT_EXPLORER_URL`). */
  explorerUrl: string
  /** `WALLETCONNECT_PROJECT_ID`: sent as a query parameter, never logged. */
  projectId: string
  /** The SDK version reported as `sv`. */
  sdkVersion: string
  /** Most pages of 100 read per refresh. @default 50 */
  maxPages?: number | undefined
  /** Per-request timeout. @default 15 000 ms */
  timeoutMs?: number | undefined
}

const ENTRIES = 100
// Logos larger than this are not proxied.
const MAX_LOGO_BYTES = 256 * 1024
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml']

function explorerUrl(
  parameters: ExplorerParameters,
  path: string,
  query: Record<string, string> = {},
): string {
  const url = new URL(`${parameters.explorerUrl.replace(/\/$/, '')}${path}`)
  url.search = new URLSearchParams({
    projectId: parameters.projectId,
    st: 'pairlink',
    sv: parameters.sdkVersion,
    ...query,
  }).toString()
  return url.toString()
}

/**
 * Every wallet of the explorer, page after page (`entries=100`) until `count` is reached, a short page, or
 * `maxPages`. Throws on any HTTP error or malformed answer (the caller keeps its last good copy); entries without
 * an `id` and `name` are skipped.
 */
export async function fetchExplorerWallets(parameters: ExplorerParameters): Promise<WcWallet[]> {
  const maxPages = parameters.maxPages ?? 50
  const wallets: WcWallet[] = []
  const seen = new Set<string>()
  for (let page = 1; page <= maxPages; page++) {
    const url = explorerUrl(parameters, '/getWallets', { page: String(page), entries: String(ENTRIES) })
    const response = await fetch(url, { signal: AbortSignal.timeout(parameters.timeoutMs ?? 15_000) })
    if (!response.ok) throw new Error(`explorer answered HTTP ${response.status} for page ${page}`)
    const body = (await response.json()) as { count?: unknown; data?: unknown }
    if (!Array.isArray(body.data) || typeof body.count !== 'number')
      throw new Error(`explorer page ${page} is not { count, data }`)
    for (const wallet of body.data)
      if (isWcWallet(wallet) && !seen.has(wallet.id)) {
        seen.add(wallet.id)
        wallets.push(wallet)
      }
    if (body.data.length < ENTRIES || page * ENTRIES >= body.count) break
  }
  if (wallets.length === 0) throw new Error('explorer listed no wallets')
  return wallets
}

/** One logo from the explorer (`getWalletImage/{image_id}`), or an error for a non-image or oversized answer. */
export async function fetchExplorerLogo(
  parameters: ExplorerParameters,
  imageId: string,
): Promise<{ body: Buffer; type: string }> {
  const url = explorerUrl(parameters, `/getWalletImage/${encodeURIComponent(imageId)}`)
  const response = await fetch(url, { signal: AbortSignal.timeout(parameters.timeoutMs ?? 15_000) })
  if (!response.ok) throw new Error(`explorer answered HTTP ${response.status} for a logo`)
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (!LOGO_TYPES.includes(type)) throw new Error(`explorer logo of type ${type || 'none'}`)
  const body = Buffer.from(await response.arrayBuffer())
  if (body.length > MAX_LOGO_BYTES) throw new Error('explorer logo too large')
  return { body, type }
}
