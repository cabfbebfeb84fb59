import { type FormEvent, useState } from 'react'
import type { AccountId } from '../../accountStore.js'
import type { AccountKind } from '../../core/toSmartAccount.js'
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
  /** How the keys act: themselves, or their smart accounts. @default 'eoa' */
  kind?: AccountKind | undefined
  /** Whether smart accounts work on this chain (the dev chain); elsewhere the choice is shown disabled, with why. */
  smartAccountsOffered?: boolean | undefined
  onKind?: ((kind: AccountKind) => void) | undefined
}

const KINDS: { value: AccountKind; label: string }[] = [
  { value: 'eoa', label: 'The key itself (EOA)' },
  { value: 'deployed', label: 'Its smart account, deployed (EIP-1271)' },
  { value: 'counterfactual', label: 'Its smart account, not deployed (EIP-6492)' },
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
      <label className="field">
        <span>Acts as</span>
        <select
          data-testid="account-kind-select"
          value={kind}
          disabled={!smartAccountsOffered}
          aria-describedby="account-kind-note"
          onChange={(e) => onKind?.(e.target.value as AccountKind)}
        >
          {KINDS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small" id="account-kind-note" data-testid="account-kind-note">
        {!smartAccountsOffered
          ? 'Smart accounts work on the Anvil dev chain only, where their factory is deployed.'
          : kind === 'deployed'
            ? 'Signs as the key’s smart account (EIP-1271); the key deploys it, paying the gas, before its first signature. It sends no transactions.'
            : kind === 'counterfactual'
              ? 'Signs as the key’s smart account, never deployed (EIP-6492 signatures). It sends no transactions.'
              : 'Smart accounts: sign as the key’s contract account instead (dev chain only).'}
      </p>
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
