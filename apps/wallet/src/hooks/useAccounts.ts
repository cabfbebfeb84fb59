import { useCallback, useMemo, useState } from 'react'
import type { LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type AccountId, loadAccounts, type StoredAccounts, saveAccounts } from '../accountStore.js'
import { DEV_ACCOUNT_COUNT, getDevAccount, parsePrivateKey, shortAddress } from '../core/accounts.js'

/** One account the person can pick. */
export type AccountOption = { id: AccountId; label: string; account: LocalAccount }

/** Return type of {@link useAccounts}. */
export type UseAccountsReturnType = {
  options: AccountOption[]
  selected: AccountOption
  select(id: AccountId): void
  /** Imports and selects a key; throws `InvalidPrivateKeyError` (which never repeats the key). */
  importKey(text: string): void
  /** Forgets the imported key and goes back to dev account 0. */
  forgetImported(): void
}

const DEV_OPTIONS: AccountOption[] = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, index) => {
  const account = getDevAccount(index)
  return { id: `dev:${index}`, label: `Dev account ${index} · ${shortAddress(account.address)}`, account }
})

/**
 * The dev accounts plus an optional imported key, and which one is selected; remembered in localStorage.
 *
 * @example
 * const { selected, select } = useAccounts()
 */
export function useAccounts(): UseAccountsReturnType {
  const [stored, setStored] = useState<StoredAccounts>(() => loadAccounts())
  const update = useCallback((next: StoredAccounts) => {
    saveAccounts(next)
    setStored(next)
  }, [])

  const options = useMemo(() => {
    if (!stored.importedKey) return DEV_OPTIONS
    const account = privateKeyToAccount(stored.importedKey)
    return [
      ...DEV_OPTIONS,
      { id: 'imported' as const, label: `Imported · ${shortAddress(account.address)}`, account },
    ]
  }, [stored.importedKey])
  const selected =
    options.find((option) => option.id === stored.selected) ?? (DEV_OPTIONS[0] as AccountOption)

  return {
    options,
    selected,
    select: (id) => update({ ...stored, selected: id }),
    importKey: (text) => update({ selected: 'imported', importedKey: parsePrivateKey(text) }),
    forgetImported: () => update({ selected: 'dev:0', importedKey: undefined }),
  }
}
