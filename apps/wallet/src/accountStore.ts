import type { Hex } from 'viem'
import { DEV_ACCOUNT_COUNT } from './core/accounts.js'
import { type AccountKind, SMART_ACCOUNT_KINDS } from './core/toSmartAccount.js'

/** Which account the wallet uses: `dev:0`…`dev:9`, or `imported`. */
export type AccountId = `dev:${number}` | 'imported'

/**
 * What the wallet remembers across reloads. `kind`: whether the key acts as itself or as its smart account (on the
 * dev chain only; elsewhere the key acts as itself whatever is stored).
 */
export type StoredAccounts = {
  selected: AccountId
  importedKey: Hex | undefined
  kind?: AccountKind | undefined
}

/** localStorage key of {@link StoredAccounts}; the session itself is under v1's `walletconnect`. */
const ACCOUNT_STORAGE_KEY = 'pairlink-wallet'

/**
 * Reads the stored account choice. Anything unreadable falls back to dev account 0: a broken entry must not lock
 * the wallet.
 */
export function loadAccounts(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): StoredAccounts {
  const fallback: StoredAccounts = { selected: 'dev:0', importedKey: undefined }
  try {
    const value = JSON.parse(
      storage?.getItem(ACCOUNT_STORAGE_KEY) ?? 'null',
    ) as Partial<StoredAccounts> | null
    const importedKey =
      typeof value?.importedKey === 'string' && /^0x[0-9a-f]{64}$/.test(value.importedKey)
        ? value.importedKey
        : undefined
    const kind = (SMART_ACCOUNT_KINDS as readonly unknown[]).includes(value?.kind)
      ? { kind: value?.kind }
      : {}
    const selected = value?.selected
    const index =
      typeof selected === 'string' && selected.startsWith('dev:') ? Number(selected.slice(4)) : Number.NaN
    if (selected === 'imported' && importedKey) return { selected, importedKey, ...kind }
    if (Number.isInteger(index) && index >= 0 && index < DEV_ACCOUNT_COUNT) {
      return { selected: selected as AccountId, importedKey, ...kind }
    }
    return { ...fallback, importedKey, ...kind }
  } catch {
    return fallback
  }
}

/**
 * Stores the account choice. The imported key is kept in plain localStorage: acceptable only because this is a
 * dev wallet for test keys, and the UI says so.
 */
export function saveAccounts(
  value: StoredAccounts,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(ACCOUNT_STORAGE_KEY, JSON.stringify(value))
  } catch {}
}
