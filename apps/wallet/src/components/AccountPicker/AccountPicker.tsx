import { type FormEvent, useState } from 'react'
import type { AccountId } from '../../accountStore.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
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
}

/** The dev accounts, the imported one, and a form to import a key. */
export function AccountPicker({ options, selected, onSelect, onImport, onForget }: AccountPickerProps) {
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
      <h2 id="account-heading">Account</h2>
      <label className="field">
        <span>Account</span>
        <select
          data-testid="account-select"
          value={selected.id}
          onChange={(e) => onSelect(e.target.value as AccountId)}
        >
          <AccountOptions options={options} />
        </select>
      </label>
      <p className="address" data-testid="account-address">
        <Address address={selected.account.address} />
      </p>
      <details className="import">
        <summary>Import a private key</summary>
        <form onSubmit={submit}>
          <label className="field">
            <span>Private key</span>
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
            Import
          </button>
          {error && (
            <p className="error-text" role="alert" data-testid="import-key-error">
              {error}
            </p>
          )}
        </form>
        {options.some((option) => option.id === 'imported') && (
          <button type="button" className="link" data-testid="forget-key-button" onClick={onForget}>
            Forget the imported key
          </button>
        )}
        <p className="muted small">Dev wallet: keys are stored in this browser. Use test keys only.</p>
      </details>
    </section>
  )
}
