import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getDevAccount } from '../../core/accounts.js'
import type { AuthRequestSummary } from '../../core/summarizeAuthRequest.js'
import { AuthenticateView } from './AuthenticateView.js'

afterEach(cleanup)

const address = getDevAccount(0).address
const peer = { name: 'Demo dapp', description: 'A demo', url: 'https://demo.test', icons: [] }
const request: AuthRequestSummary = {
  domain: 'demo.test',
  aud: 'https://demo.test/login',
  chains: ['eip155:31337', 'eip155:999'],
  evmChains: [31337],
  methods: ['eth_sendTransaction', 'personal_sign', 'wallet_getCallsStatus'],
  grantedMethods: ['eth_sendTransaction', 'personal_sign'],
  payload: {
    type: 'caip122',
    chains: ['eip155:31337'],
    domain: 'demo.test',
    aud: 'https://demo.test/login',
    version: '1',
    nonce: 'n0nce1234',
    iat: '2026-11-28T10:00:00.000Z',
  },
  messages: [
    {
      chainId: 31337,
      text: `demo.test wants you to sign in with your Ethereum account:\n${address}\n\nURI: …`,
    },
  ],
  expiryTimestamp: 0,
}

function show(overrides: Partial<Parameters<typeof AuthenticateView>[0]> = {}) {
  const props = { peer, request, address, onApprove: vi.fn(), onReject: vi.fn(), ...overrides }
  render(<AuthenticateView {...props} />)
  return props
}

describe('AuthenticateView', () => {
  test('default: who asks, the message as signed, the ReCap in words, the chains; Approve', () => {
    const { onApprove } = show()
    expect(screen.getByRole('region', { name: 'Connect and sign in' })).toBeTruthy()
    expect(screen.getByTestId('auth-summary').textContent).toBe('Demo dapp asks you to connect and sign in.')
    const message = screen.getByRole('region', { name: 'Message to sign' })
    expect(message.tabIndex).toBe(0)
    expect(screen.getByTestId('auth-message').textContent).toBe(request.messages[0]?.text)
    expect(screen.getAllByTestId('auth-recap').map((li) => [li.textContent, li.dataset.granted])).toEqual([
      ['Send transactions (eth_sendTransaction)', 'true'],
      ['Sign messages (personal_sign)', 'true'],
      ['wallet_getCallsStatus — not supported, not granted', 'false'],
    ])
    expect(screen.getAllByTestId('auth-chain').map((li) => li.textContent)).toEqual([
      'Anvil dev chain (31337)',
      'Chain 999 — not supported, not signed',
    ])
    expect(screen.getByTestId('auth-address').textContent).toBe(address)
    fireEvent.click(screen.getByRole('button', { name: 'Approve and sign in' }))
    expect(onApprove).toHaveBeenCalledOnce()
  })

  test('behavior: a request the wallet must refuse says why; Approve is disabled, Reject answers', () => {
    const refused = 'it asks only for chain eip155:999, which this wallet does not support'
    const { onReject } = show({ request: { ...request, evmChains: [], messages: [], refused } })
    expect(screen.getByRole('alert').textContent).toBe(
      `This wallet cannot approve it: ${refused}. Reject to tell the dapp why.`,
    )
    expect(screen.queryByTestId('auth-message')).toBeNull()
    expect((screen.getByTestId('approve-auth') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByTestId('reject-auth'))
    expect(onReject).toHaveBeenCalledOnce()
  })
})
