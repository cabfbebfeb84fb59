import type { AccountOption } from '../../hooks/useAccounts.js'

/** The `<option>`s of an account `<select>`: the dev accounts and, when imported, the imported key's account. */
export function AccountOptions({ options }: { options: AccountOption[] }) {
  return options.map((option) => (
    <option key={option.id} value={option.id}>
      {option.label}
    </option>
  ))
}
