import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getDevAccount, parsePrivateKey } from '../../core/accounts.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
import { AccountPicker } from './AccountPicker.js'

afterEach(cleanup)

const options: AccountOption[] = [0, 1].map((index) => ({
  id: `dev:${index}` as const,
  label: `Dev account ${index}`,
  account: getDevAccount(index),
}))

describe('AccountPicker', () => {
  test('default: shows the selected address and selects another', () => {
    const onSelect = vi.fn()
    render(
      <AccountPicker
        options={options}
        selected={options[0] as AccountOption}
        onSelect={onSelect}
        onImport={vi.fn()}
        onForget={vi.fn()}
      />,
    )
    expect(screen.getByTestId('account-address').textContent).toBe(getDevAccount(0).address)
    fireEvent.change(screen.getByTestId('account-select'), { target: { value: 'dev:1' } })
    expect(onSelect).toHaveBeenCalledWith('dev:1')
    expect(screen.getByText(/keys are stored in this browser/)).toBeTruthy()
  })

  test('error: an invalid key shows the error without the key', () => {
    const onImport = vi.fn((key: string) => void parsePrivateKey(key))
    render(
      <AccountPicker
        options={options}
        selected={options[0] as AccountOption}
        onSelect={vi.fn()}
        onImport={onImport}
        onForget={vi.fn()}
      />,
    )
    fireEvent.change(screen.getByTestId('import-key-input'), { target: { value: '0xdeadbeef' } })
    fireEvent.click(screen.getByTestId('import-key-button'))
    expect(screen.getByTestId('import-key-error').textContent).toBe(
      'Invalid private key: expected 0x followed by 64 hex digits',
    )
    expect((screen.getByTestId('import-key-input') as HTMLInputElement).value).toBe('')
    expect(document.body.textContent).not.toContain('deadbeef')
  })

  test('behavior: smart accounts on the dev chain — the choice is offered and reported', () => {
    const onKind = vi.fn()
    render(
      <AccountPicker
        options={options}
        selected={options[0] as AccountOption}
        onSelect={vi.fn()}
        onImport={vi.fn()}
        onForget={vi.fn()}
        kind="eoa"
        smartAccountsOffered
        onKind={onKind}
      />,
    )
    const select = screen.getByTestId('account-kind-select') as HTMLSelectElement
    expect(select.disabled).toBe(false)
    fireEvent.change(select, { target: { value: 'counterfactual' } })
    expect(onKind).toHaveBeenCalledWith('counterfactual')
  })

  test('behavior: elsewhere the choice is disabled and says why', () => {
    render(
      <AccountPicker
        options={options}
        selected={options[0] as AccountOption}
        onSelect={vi.fn()}
        onImport={vi.fn()}
        onForget={vi.fn()}
        smartAccountsOffered={false}
      />,
    )
    expect((screen.getByTestId('account-kind-select') as HTMLSelectElement).disabled).toBe(true)
    expect(screen.getByTestId('account-kind-note').textContent).toBe(
      'Smart accounts work on the Anvil dev chain only, where their factory is deployed.',
    )
  })
})
