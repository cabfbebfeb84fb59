import { type FormEvent, useState } from 'react'
import type { AccountId } from '../../accountStore.js'
import type { AccountKind } from '../../core/toSmartAccount.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
import { type MessageKey, t } from '../../i18n/i18n.js'
import { AccountOptions } from '../AccountOptions/AccountOptions.js'
import { Address } from '../Address/Address.js'

/** Props of {@link AccountPicker}. */
export type AccountPickerProps = {
  options: AccountOption[]
  selected: AccountOption
  onSelect(id: AccountId): void
  /** Throws when the key is invalid; the message never contains the key. */
  onImport(key: string): void
  onForget(): void
  /** How the keys act: themselves, or their smart accounts. @default 'eoa' */
  kind?: AccountKind | undefined
  /** Whether smart accounts work on this chain (the dev chain); elsewhere the choice is shown disabled, with why. */
  smartAccountsOffered?: boolean | undefined
  onKind?: ((kind: AccountKind) => void) | undefined
}

const KINDS: { value: AccountKind; label: MessageKey }[] = [
  { value: 'eoa', label: 'kind_eoa' },
  { value: 'deployed', label: 'kind_deployed' },
  { value: 'counterfactual', label: 'kind_counterfactual' },
]

/** The dev accounts, the imported one, and a form to import a key. */
export function AccountPicker(props: AccountPickerProps) {
  const {
    options,
    selected,
    onSelect,
    onImport,
    onForget,
    kind = 'eoa',
    smartAccountsOffered,
    onKind,
  } = props
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | undefined>()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    try {
      onImport(key)
      setKey('')
      setError(undefined)
    } catch (e) {
      // A rejected key is not kept on the page either.
      setKey('')
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <section className="card" aria-labelledby="account-heading">
      <h2 id="account-heading">{t('account')}</h2>
      <label className="field">
        <span>{t('account')}</span>
        <select
          data-testid="account-select"
          value={selected.id}
          onChange={(e) => onSelect(e.target.value as AccountId)}
        >
          <AccountOptions options={options} />
        </select>
      </label>
      <label className="field">
        <span>{t('acts_as')}</span>
        <select
          data-testid="account-kind-select"
          value={kind}
          disabled={!smartAccountsOffered}
          aria-describedby="account-kind-note"
          onChange={(e) => onKind?.(e.target.value as AccountKind)}
        >
          {KINDS.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small" id="account-kind-note" data-testid="account-kind-note">
        {t(
          !smartAccountsOffered
            ? 'kind_unavailable'
            : kind === 'deployed'
              ? 'kind_deployed_note'
              : kind === 'counterfactual'
                ? 'kind_counterfactual_note'
                : 'kind_eoa_note',
        )}
      </p>
      <p className="address" data-testid="account-address">
        <Address address={selected.account.address} />
      </p>
      <details className="import">
        <summary>{t('import_key')}</summary>
        <form onSubmit={submit}>
          <label className="field">
            <span>{t('private_key')}</span>
            <input
              data-testid="import-key-input"
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder="0x…"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </label>
          <button type="submit" data-testid="import-key-button" disabled={!key.trim()}>
            {t('import')}
          </button>
          {error && (
            <p className="error-text" role="alert" data-testid="import-key-error">
              {error}
            </p>
          )}
        </form>
        {options.some((option) => option.id === 'imported') && (
          <button type="button" className="link" data-testid="forget-key-button" onClick={onForget}>
            {t('forget_key')}
          </button>
        )}
        <p className="muted small">{t('import_note')}</p>
      </details>
    </section>
  )
}
