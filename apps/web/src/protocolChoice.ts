import type { AppConfig } from './hooks/useConfig.js'

/** The WalletConnect generation a session is made with. */
export type Protocol = 1 | 2

/** Where the person's choice is kept (per browser, like the sessions themselves). */
export const PROTOCOL_STORAGE_KEY = 'pairlink-protocol'

// v1's own storage key (`@pairlink/client`'s default): a v1 session kept from before v2 was the default.
const V1_SESSION_KEY = 'walletconnect'

/**
 * The protocol this page pairs with: the one chosen last; else v1 when a v1 session is stored (so it restores), or
 * when the server has no v2 relay; else v2, the default.
 *
 * @example
 * const protocol = readProtocol(config) // 2
 */
export function readProtocol(
  config: AppConfig,
  storage: Pick<Storage, 'getItem'> | undefined = local(),
): Protocol {
  if (!config.relayUrl) return 1
  const stored = safely(() => storage?.getItem(PROTOCOL_STORAGE_KEY))
  if (stored === '1' || stored === '2') return Number(stored) as Protocol
  return safely(() => storage?.getItem(V1_SESSION_KEY)) ? 1 : 2
}

/** Remembers the person's choice for the next visit; storage that refuses (private mode) just forgets it. */
export function saveProtocol(
  protocol: Protocol,
  storage: Pick<Storage, 'setItem'> | undefined = local(),
): void {
  safely(() => storage?.setItem(PROTOCOL_STORAGE_KEY, String(protocol)))
}

function local(): Storage | undefined {
  return safely(() => globalThis.localStorage)
}

function safely<value>(read: () => value): value | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}
