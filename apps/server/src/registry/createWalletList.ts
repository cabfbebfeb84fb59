import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { type ExplorerParameters, fetchExplorerLogo, fetchExplorerWallets } from './explorer.js'
import { LOGOS_PATH, readLogoFile, referenceWallet } from './logos.js'
import { isWcWallet, type ListingEntry, toListing, type WcWallet } from './toListing.js'

/** Parameters of {@link createWalletList}. */
export type CreateWalletListParameters = {
  /** The bundled snapshot (`data/wallets.json`, explorer shape `{ data: WcWallet[] }`). */
  snapshotFile: string
  /** Folder of the snapshot's logo files (`data/logos`). */
  logosDir: string
  /** With a project id: WalletConnect's explorer to read the list from. @default none: no explorer wallets */
  explorer?: ExplorerParameters | undefined
  /** The operator's wallets (`WALLETS_FILE`, already validated), listed after Pairlink Wallet. @default [] */
  extraWallets?: ListingEntry[] | undefined
  /** Folder keeping the last good explorer list across restarts (under `DATA_DIR`). @default none */
  cacheDir?: string | undefined
  /** Clock (ms). @default Date.now */
  now?: (() => number) | undefined
  /** Least time between two successful explorer reads. @default 24 h */
  refreshIntervalMs?: number | undefined
  /** Least time before trying again after a failed read. @default 1 h */
  retryIntervalMs?: number | undefined
  /** Told of a failed refresh or logo (a message without the project id). @default none */
  onError?: ((message: string) => void) | undefined
}

/** The list as served: the JSON body, its compressed forms and strong ETag, computed once per version and origin. */
type WalletListDocument = { json: Buffer; gzip: Buffer; br: Buffer; etag: string }

/** Return type of {@link createWalletList}. */
export type WalletList = {
  /** The current list for this server's `origin` (logo URLs are absolute on it). */
  document(origin: string): WalletListDocument
  /** Reads the explorer if a read is due (never more than daily); resolves `true` after a successful read. */
  refreshIfDue(): Promise<boolean>
  /** A logo by its name under `/registry/logos/`: a snapshot file or a proxied explorer image; `undefined` if none. */
  logo(name: string): Promise<{ body: Buffer; type: string } | undefined>
  /** Where the wallets come from now. */
  source(): 'pairlink' | 'snapshot' | 'explorer'
}

const DAY = 24 * 60 * 60_000
const CACHE_FILE = 'explorer-wallets.json'
const EXPLORER_LOGO = /^wc-([A-Za-z0-9-]{1,64})$/

/**
 * The server's wallet list. Without an explorer: Pairlink Wallet and the operator's wallets, the only ones that can
 * reach this relay. With one: those plus every wallet of WalletConnect's explorer, read at most daily, the last good
 * copy kept (in memory and in `cacheDir`) when a read fails, the bundled snapshot until the first good read. Logos are
 * always this server's URLs; explorer images are fetched once and kept in memory.
 * @example
 * const list = createWalletList({ snapshotFile, logosDir, explorer: { explorerUrl, projectId, sdkVersion } })
 * void list.refreshIfDue()
 */
export function createWalletList(parameters: CreateWalletListParameters): WalletList {
  const { explorer, cacheDir } = parameters
  const now = parameters.now ?? Date.now
  const refreshMs = parameters.refreshIntervalMs ?? DAY
  const retryMs = parameters.retryIntervalMs ?? 60 * 60_000
  const extra = parameters.extraWallets ?? []
  const snapshot = explorer ? readSnapshot(parameters.snapshotFile) : []
  let fetched: { at: number; wallets: WcWallet[] } | undefined = cacheDir ? readCache(cacheDir) : undefined
  let lastFailure: number | undefined
  let inflight: Promise<boolean> | undefined
  let version = 0
  const documents = new Map<string, WalletListDocument>()
  const logos = new Map<string, Promise<{ body: Buffer; type: string } | undefined>>()

  const imageIds = () => new Set((fetched?.wallets ?? []).map((w) => w.image_id).filter(Boolean) as string[])

  function build(origin: string): WalletListDocument {
    const base = origin.replace(/\/$/, '')
    const logoUrl = (wallet: WcWallet) => {
      if (fetched) return wallet.image_id ? `${base}${LOGOS_PATH}/wc-${wallet.image_id}` : ''
      return wallet.logo ? `${base}${LOGOS_PATH}/${encodeURIComponent(wallet.logo)}` : ''
    }
    const listings: Record<string, ListingEntry> = {}
    const add = (entry: ListingEntry) => {
      if (!(entry.id in listings)) listings[entry.id] = entry
    }
    add(referenceWallet(base))
    for (const entry of extra) add(sameSiteImages(entry, base))
    if (explorer) for (const wallet of fetched?.wallets ?? snapshot) add(toListing(wallet, logoUrl(wallet)))
    const json = Buffer.from(JSON.stringify({ count: Object.keys(listings).length, listings }))
    return {
      json,
      gzip: gzipSync(json, { level: 9 }),
      br: brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    }
  }

  async function refresh(): Promise<boolean> {
    if (!explorer) return false
    try {
      const wallets = await fetchExplorerWallets(explorer)
      fetched = { at: now(), wallets }
      lastFailure = undefined
      version++
      documents.clear()
      if (cacheDir) writeCache(cacheDir, fetched, parameters.onError)
      return true
    } catch (error) {
      lastFailure = now()
      parameters.onError?.(
        `wallet list refresh failed, serving the last good copy: ${(error as Error).message}`,
      )
      return false
    }
  }

  return {
    document(origin) {
      const key = `${version}\n${origin}`
      let document = documents.get(key)
      if (!document) {
        // Few origins per server (its public URL, maybe a LAN address): a small bound keeps a Host-spoofing client
        // from growing the cache.
        if (documents.size >= 16) documents.clear()
        document = build(origin)
        documents.set(key, document)
      }
      return document
    },
    refreshIfDue() {
      if (!explorer) return Promise.resolve(false)
      if (inflight) return inflight
      const t = now()
      if (fetched && t - fetched.at < refreshMs) return Promise.resolve(false)
      if (lastFailure !== undefined && t - lastFailure < retryMs) return Promise.resolve(false)
      inflight = refresh().finally(() => {
        inflight = undefined
      })
      return inflight
    },
    async logo(name) {
      const explorerImage = EXPLORER_LOGO.exec(name)?.[1]
      if (!explorerImage) return readLogoFile(parameters.logosDir, name)
      // Only images of the current list: the server is no open proxy to the explorer.
      if (!explorer || !imageIds().has(explorerImage)) return undefined
      let pending = logos.get(explorerImage)
      if (!pending) {
        pending = fetchExplorerLogo(explorer, explorerImage).catch((error: Error) => {
          // A failed logo is asked again on a later request; the list itself never depends on it.
          logos.delete(explorerImage)
          parameters.onError?.(`wallet logo: ${error.message}`)
          return undefined
        })
        logos.set(explorerImage, pending)
      }
      return pending
    },
    source: () => (!explorer ? 'pairlink' : fetched ? 'explorer' : 'snapshot'),
  }
}

/** An operator's entry with a relative image made absolute on this server (data: URLs stay as they are). */
function sameSiteImages(entry: ListingEntry, base: string): ListingEntry {
  const sm = entry.image_url.sm
  if (!sm.startsWith('/')) return entry
  const url = `${base}${sm}`
  return { ...entry, image_url: { sm: url, md: url, lg: url } }
}

function readSnapshot(file: string): WcWallet[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { data?: unknown[] }
  return (parsed.data ?? []).filter(isWcWallet)
}

function readCache(dir: string): { at: number; wallets: WcWallet[] } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, CACHE_FILE), 'utf8')) as {
      at?: unknown
      wallets?: unknown
    }
    if (typeof parsed.at !== 'number' || !Array.isArray(parsed.wallets)) return undefined
    const wallets = parsed.wallets.filter(isWcWallet)
    return wallets.length > 0 ? { at: parsed.at, wallets } : undefined
  } catch {
    return undefined
  }
}

function writeCache(
  dir: string,
  fetched: { at: number; wallets: WcWallet[] },
  onError: ((message: string) => void) | undefined,
) {
  try {
    mkdirSync(dir, { recursive: true })
    // Written aside and renamed: a crash mid-write never leaves a torn copy to start from.
    const file = join(dir, CACHE_FILE)
    writeFileSync(`${file}.tmp`, JSON.stringify(fetched))
    renameSync(`${file}.tmp`, file)
  } catch (error) {
    onError?.(`wallet list cache not written: ${(error as Error).message}`)
  }
}
