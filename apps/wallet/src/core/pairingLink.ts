import { splitUri, URI_PROTOCOL } from '@pairlink/protocol'
import { ExpiredUriError, getUriVersion, parsePairingUri } from '@pairlink/protocol/v2'
import { ExpiredLinkError, IncompleteUriError, UnsupportedUriError } from './errors.js'

/** What is wrong with a pasted link, or `nudge` for v1's `wc:{topic}@1` that only brings the wallet forward. */
export type PairingLinkProblem =
  | 'not_walletconnect'
  | 'v2_invalid'
  | 'v2_expired'
  | 'missing_topic'
  | 'not_pairing'
  | 'nudge'
  | 'missing_bridge'
  | 'bad_bridge'
  | 'missing_key'
  | 'bad_key'

const SHAPE = 'a pairing link looks like wc:…@2?relay-protocol=irn&symKey=… or wc:…@1?bridge=…&key=…'
const COPY_AGAIN = 'copy the whole link the dapp shows, or scan its QR code again'

/** What the person reads for each problem: what is wrong, then what to do. */
const MESSAGES: Record<PairingLinkProblem, string> = {
  not_walletconnect: `This is not a WalletConnect link: ${SHAPE}`,
  v2_invalid: `This WalletConnect v2 link is incomplete or damaged: ${COPY_AGAIN}`,
  v2_expired:
    'This WalletConnect v2 link has expired: a link is valid for a few minutes and pairs once. Get a new link from the dapp and connect again',
  missing_topic: `This wc: link has no session topic before @1: ${SHAPE}`,
  not_pairing: `This wc: link has neither a bridge nor a key: ${SHAPE}`,
  nudge: 'This link only brings the wallet forward; it is not a pairing request',
  missing_bridge: `This link has no bridge (bridge=…): ${COPY_AGAIN}`,
  bad_bridge: `This link's bridge is not an http(s) or ws(s) URL: ${COPY_AGAIN}`,
  missing_key: `This link has no key (key=…): ${COPY_AGAIN}`,
  bad_key: `This link's key is not 64 hex digits: ${COPY_AGAIN}`,
}

/**
 * The protocol version of a `wc:` link: `2` for a WalletConnect v2 link (`wc:…@2?…`), else `1` (v1's links, and
 * anything that is no pairing link at all: v1's checks name what is wrong with it).
 *
 * @example
 * getLinkVersion('wc:7f6e…@2?relay-protocol=irn&symKey=…') // 2
 */
export function getLinkVersion(link: string): 1 | 2 {
  return getUriVersion(link.trim()) === 2 ? 2 : 1
}

/**
 * Checks a pasted or deep-linked `wc:` link before pairing, and says in plain words what is wrong with it:
 * not a WalletConnect link, a damaged or expired v2 link, a v1 link missing its bridge or key, or v1's
 * mobile-linking nudge (`wc:{topic}@1`, reference §1.3). `undefined` when the link can pair.
 *
 * @example
 * checkPairingLink('wc:7f6e…@2?expiryTimestamp=1&relay-protocol=irn&symKey=…')?.problem // 'v2_expired'
 */
export function checkPairingLink(link: string): { problem: PairingLinkProblem; message: string } | undefined {
  const problem = findProblem(link.trim())
  return problem && { problem, message: MESSAGES[problem] }
}

function findProblem(link: string): PairingLinkProblem | undefined {
  if (getUriVersion(link) === 2) {
    try {
      parsePairingUri(link)
      return undefined
    } catch (error) {
      return error instanceof ExpiredUriError ? 'v2_expired' : 'v2_invalid'
    }
  }
  const parts = splitUri(link)
  if (parts.protocol !== URI_PROTOCOL || !link.includes(':')) return 'not_walletconnect'
  // v1 itself never checks the version (reference §1.3); a later protocol's links are v2's to check.
  if (parts.version !== null && parts.version > 2) return 'v2_invalid'
  if (!parts.topic) return 'missing_topic'
  if (!parts.bridge && !parts.key) return parts.version === 1 ? 'nudge' : 'not_pairing'
  if (!parts.bridge) return 'missing_bridge'
  if (!isBridgeUrl(parts.bridge)) return 'bad_bridge'
  if (!parts.key) return 'missing_key'
  if (!/^[0-9a-f]{64}$/i.test(parts.key)) return 'bad_key'
  return undefined
}

function isBridgeUrl(bridge: string): boolean {
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(bridge).protocol)
  } catch {
    return false
  }
}

/**
 * Throws for a link that cannot pair and must not reach v1's URI checks: v1's nudge `wc:{topic}@1`
 * ({@link IncompleteUriError}), an expired v2 link ({@link ExpiredLinkError}), a damaged v2 link or a `wc:` text
 * with neither bridge nor key ({@link UnsupportedUriError}). Other problems are left to v1's checks, whose exact
 * texts (`Invalid or missing key parameter value`, …) v1-era tools compare.
 *
 * @example
 * assertPairable(uri) // before createClient({ uri })
 */
export function assertPairable(link: string): void {
  const found = checkPairingLink(link)
  if (found?.problem === 'nudge') throw new IncompleteUriError()
  if (found?.problem === 'v2_expired') throw new ExpiredLinkError(found.message)
  if (found?.problem === 'v2_invalid' || found?.problem === 'not_pairing')
    throw new UnsupportedUriError(found.message)
}
