import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { SignInState } from '../../hooks/useSignIn.js'
import { SignIn } from './SignIn.js'

afterEach(cleanup)

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const state = (patch: Partial<SignInState>): SignInState => ({
  status: 'signed-out',
  account: undefined,
  message: undefined,
  signIn: vi.fn(async () => {}),
  cancel: vi.fn(),
  signOut: vi.fn(async () => {}),
  sessionEnded: vi.fn(),
  ...patch,
})

describe('SignIn', () => {
  test('default: signed out — Sign in with wallet asks for the signature', () => {
    const signIn = state({})
    render(<SignIn signIn={signIn} />)
    expect(screen.getByTestId('sign-in-status').getAttribute('data-state')).toBe('signed-out')
    expect(screen.getByTestId('sign-in-button').textContent).toBe('Sign in with wallet')
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }))
    expect(signIn.signIn).toHaveBeenCalledOnce()
  })

  test('behavior: signed in — the address and Sign out', () => {
    const signIn = state({
      status: 'signed-in',
      account: { address: ADDRESS, chainId: 31337 },
      message: { tone: 'success', text: `Signed in as ${ADDRESS}.` },
    })
    render(<SignIn signIn={signIn} />)
    expect(screen.getByTestId('sign-in-address').textContent).toBe(ADDRESS)
    expect(screen.getByTestId('sign-in-result').getAttribute('data-tone')).toBe('success')
    expect(screen.queryByTestId('sign-in-button')).toBeNull()
    fireEvent.click(screen.getByTestId('sign-out-button'))
    expect(signIn.signOut).toHaveBeenCalledOnce()
  })

  test('behavior: while signing, Cancel stops the wait; no Cancel otherwise', () => {
    const signIn = state({ status: 'signing' })
    render(<SignIn signIn={signIn} />)
    fireEvent.click(screen.getByTestId('sign-in-cancel'))
    expect(signIn.cancel).toHaveBeenCalledOnce()
    cleanup()
    render(<SignIn signIn={state({})} />)
    expect(screen.queryByTestId('sign-in-cancel')).toBeNull()
  })

  test('behavior: checking and signing keep the button disabled', () => {
    render(<SignIn signIn={state({ status: 'checking' })} />)
    expect((screen.getByTestId('sign-in-button') as HTMLButtonElement).disabled).toBe(true)
    cleanup()
    render(<SignIn signIn={state({ status: 'signing' })} />)
    expect(screen.getByTestId('sign-in-button').textContent).toBe('Confirm in your wallet…')
  })

  test('error: a failure shows as an alert, not as a result', () => {
    const text = 'You refused the signature in the wallet, so you are not signed in.'
    const { rerender } = render(<SignIn signIn={state({ message: { tone: 'error', text } })} />)
    expect(screen.getByTestId('sign-in-error').textContent).toBe(text)
    expect(screen.queryByTestId('sign-in-result')).toBeNull()
    // The same message as a success is found by that query: its null above is the component's answer.
    rerender(<SignIn signIn={state({ message: { tone: 'success', text: 'You signed out.' } })} />)
    expect(screen.getByTestId('sign-in-result').textContent).toBe('You signed out.')
    expect(screen.queryByTestId('sign-in-error')).toBeNull()
  })
})
