import { DEEPLINK_CHOICE_STORAGE_KEY } from '@pairlink/protocol'

/** What the modal stores when the person picks a wallet (reference §4.7). */
export type DeepLinkChoice = { name: string; href: string }

/**
 * Stores `WALLETCONNECT_DEEPLINK_CHOICE = { name, href }` with `href` the link before its first `?`, so the v1
 * client can send the person back to the wallet when it asks for a signature. Storage errors (private mode,
 * blocked cookies, a full quota) are ignored: the choice only saves a tap later.
 *
 * @example
 * saveDeepLinkChoice('Rainbow', 'https://rnbwapp.com/wc?uri=…') // stores { name: 'Rainbow', href: 'https://rnbwapp.com/wc' }
 */
export function saveDeepLinkChoice(name: string, link: string): DeepLinkChoice {
  const choice = { name, href: link.split('?')[0] ?? '' }
  try {
    globalThis.localStorage?.setItem(DEEPLINK_CHOICE_STORAGE_KEY, JSON.stringify(choice))
  } catch {}
  return choice
}
