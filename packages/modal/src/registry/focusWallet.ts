import { DEEPLINK_CHOICE_STORAGE_KEY } from '@pairlink/protocol'
import { detectPlatform, type Platform } from '../platform/detectPlatform.js'
import type { DeepLinkChoice } from './saveDeepLinkChoice.js'

// Only a link the modal itself stored from a wallet's registry entry: a universal link, or a native scheme that runs
// no script. Android's raw `wc:{topic}@n` (its app chooser) is a pairing link without its key: not a wallet to open.
const UNSAFE = /^\s*(javascript|data|vbscript|file|blob|about|wc):/i

/**
 * The wallet the person tapped in the modal's list (`WALLETCONNECT_DEEPLINK_CHOICE`, stored by the list), when it is
 * one that can be opened again: a named wallet with a universal link or a native scheme; else `undefined`.
 *
 * @example
 * readDeepLinkChoice()?.name // 'MetaMask'
 */
export function readDeepLinkChoice(
  storage: Pick<Storage, 'getItem'> | undefined = local(),
): DeepLinkChoice | undefined {
  let choice: unknown
  try {
    choice = JSON.parse(storage?.getItem(DEEPLINK_CHOICE_STORAGE_KEY) ?? 'null')
  } catch {
    return undefined
  }
  if (typeof choice !== 'object' || choice === null) return undefined
  const { name, href } = choice as Partial<DeepLinkChoice>
  if (typeof name !== 'string' || typeof href !== 'string' || !href || UNSAFE.test(href)) return undefined
  return { name, href }
}

/** Parameters of {@link focusWallet}. */
export type FocusWalletParameters = {
  /** @default detected from the user agent */
  platform?: Platform | undefined
  /** Opens a link. @default `window.open` (a universal link in a new tab, a native scheme in place) */
  open?: ((href: string, target: '_blank' | '_self') => void) | undefined
  storage?: Pick<Storage, 'getItem'> | undefined
  /** The page's origin: a wallet on it is not opened again. @default location.origin */
  origin?: string | undefined
}

/**
 * Brings the wallet forward on a phone, before each request of a paired session: opens the link of the wallet the
 * person tapped in the modal's list (its universal or native link, `…/wc`) **without** a pairing URI, as the published
 * SDK does, so the wallet comes to the front with the request waiting. Call it inside the person's click (a browser
 * opens another app only on a gesture), then send the request. On a desktop, or with no wallet chosen in the list
 * (scanned by QR code, Android's app chooser), it does nothing. Returns the wallet it opened.
 *
 * @example
 * onClick={() => { focusWallet(); void signMessage({ message }) }}
 */
export function focusWallet(parameters: FocusWalletParameters = {}): DeepLinkChoice | undefined {
  if ((parameters.platform ?? detectPlatform()) === 'desktop') return undefined
  const choice = readDeepLinkChoice(parameters.storage ?? local())
  if (!choice) return undefined
  const universal = /^https?:/i.test(choice.href)
  // A wallet page of the dapp's own site (Pairlink's reference wallet) is a tab of this browser, already open where the
  // person tapped it: a new tab per request would only pile up copies of it.
  if (universal && sameOrigin(choice.href, parameters.origin ?? globalThis.location?.origin)) return undefined
  const open =
    parameters.open ?? ((href, target) => void globalThis.open?.(href, target, 'noreferrer noopener'))
  open(choice.href, universal ? '_blank' : '_self')
  return choice
}

function sameOrigin(href: string, origin: string | undefined): boolean {
  try {
    return origin !== undefined && new URL(href).origin === origin
  } catch {
    return false
  }
}

function local(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}
