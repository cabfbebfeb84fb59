import { useCallback, useMemo, useState } from 'react'
import type { LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type AccountId, loadAccounts, type StoredAccounts, saveAccounts } from '../accountStore.js'
import { DEV_ACCOUNT_COUNT, getDevAccount, parsePrivateKey, shortAddress } from '../core/accounts.js'
import { type AccountKind, SMART_ACCOUNT_CHAIN_ID, toSmartAccount } from '../core/toSmartAccount.js'
import { type MessageKey, t } from '../i18n/i18n.js'

/** One account the person can pick. */
export type AccountOption = { id: AccountId; label: string; account: LocalAccount }

/** Parameters of {@link useAccounts}: the server's chain, once known; smart accounts are offered on the dev chain. */
export type UseAccountsParameters = { chainId: number; rpcUrl: string } | undefined

/** Return type of {@link useAccounts}. */
export type UseAccountsReturnType = {
  options: AccountOption[]
  selected: AccountOption
  select(id: AccountId): void
  /** Imports and selects a key; throws `InvalidPrivateKeyError` (which never repeats the key). */
  importKey(text: string): void
  /** Forgets the imported key and goes back to dev account 0. */
  forgetImported(): void
  /** How the keys act: `eoa` unless a smart account is chosen and offered here. */
  kind: AccountKind
  /** Whether this chain has smart accounts (the dev chain: its factory at its fixed address, its keys funded). */
  smartAccountsOffered: boolean
  setKind(kind: AccountKind): void
}

const KIND_LABELS: Record<Exclude<AccountKind, 'eoa'>, MessageKey> = {
  deployed: 'label_smart',
  counterfactual: 'label_counterfactual',
}

/**
 * The dev accounts plus an optional imported key, and which one is selected; remembered in localStorage. On the
 * dev chain each key may act as its smart account (`setKind`): the options' accounts are then those.
 *
 * @example
 * const { selected, select } = useAccounts(config)
 */
export function useAccounts(chain?: UseAccountsParameters): UseAccountsReturnType {
  const [stored, setStored] = useState<StoredAccounts>(() => loadAccounts())
  const update = useCallback((next: StoredAccounts) => {
    saveAccounts(next)
    setStored(next)
  }, [])
  const smartAccountsOffered = chain?.chainId === SMART_ACCOUNT_CHAIN_ID
  const kind = (smartAccountsOffered && stored.kind) || 'eoa'
  const rpcUrl = chain?.rpcUrl

  const options = useMemo(() => {
    const keys = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, index) => ({
      id: `dev:${index}` as AccountId,
      name: t('dev_account', { index }),
      key: getDevAccount(index),
    }))
    if (stored.importedKey)
      keys.push({ id: 'imported', name: t('imported_account'), key: privateKeyToAccount(stored.importedKey) })
    return keys.map(({ id, name, key }): AccountOption => {
      if (kind === 'eoa' || !rpcUrl)
        return { id, label: `${name} · ${shortAddress(key.address)}`, account: key }
      const account = toSmartAccount({ owner: key, kind, rpcUrl })
      return { id, label: `${name} · ${t(KIND_LABELS[kind])} · ${shortAddress(account.address)}`, account }
    })
  }, [stored.importedKey, kind, rpcUrl])
  const selected = options.find((option) => option.id === stored.selected) ?? (options[0] as AccountOption)

  return {
    options,
    selected,
    select: (id) => update({ ...stored, selected: id }),
    importKey: (text) => update({ ...stored, selected: 'imported', importedKey: parsePrivateKey(text) }),
    forgetImported: () => update({ ...stored, selected: 'dev:0', importedKey: undefined }),
    kind,
    smartAccountsOffered,
    setKind: (next) => update({ ...stored, kind: next }),
  }
}
