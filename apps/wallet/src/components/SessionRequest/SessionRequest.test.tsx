import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getDevAccount } from '../../core/accounts.js'
import type { AccountOption } from '../../hooks/useAccounts.js'
import { SessionRequest } from './SessionRequest.js'

afterEach(cleanup)

const options: AccountOption[] = [0, 1].map((index) => ({
  id: `dev:${index}` as const,
  label: `Dev account ${index}`,
  account: getDevAccount(index),
}))
const peer = {
  name: 'Demo dapp',
  description: 'A demo',
  url: 'https://demo.test',
  icons: ['https://demo.test/icon.png'],
}

function show(overrides: Partial<Parameters<typeof SessionRequest>[0]> = {}) {
  const props = {
    peer,
    requestedChainId: null,
    devChainId: 31337,
    options,
    selected: options[0] as AccountOption,
    onApprove: vi.fn(),
    onReject: vi.fn(),
    ...overrides,
  }
  render(<SessionRequest {...props} />)
  return props
}

describe('SessionRequest', () => {
  test('default: shows the dapp and approves with the selected account and the dev chain', () => {
    const { onApprove } = show()
    expect(screen.getByTestId('peer-name').textContent).toBe('Demo dapp')
    expect(screen.getByTestId('peer-url').textContent).toBe('https://demo.test')
    expect(screen.getByTestId('peer-icon').getAttribute('src')).toBe('https://demo.test/icon.png')
    fireEvent.click(screen.getByTestId('approve-session'))
    expect(onApprove).toHaveBeenCalledWith({ accountId: 'dev:0', chainId: 31337 })
  })

  test('args: another account and chain', () => {
    const { onApprove } = show()
    fireEvent.change(screen.getByLabelText('Account to share'), { target: { value: 'dev:1' } })
    fireEvent.change(screen.getByLabelText('Chain'), { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    expect(onApprove).toHaveBeenCalledWith({ accountId: 'dev:1', chainId: 1 })
  })

  test('behavior: the chain the dapp asked for is preselected', () => {
    const { onApprove } = show({ requestedChainId: 11155111 })
    expect((screen.getByTestId('session-chain-select') as HTMLSelectElement).value).toBe('11155111')
    fireEvent.click(screen.getByTestId('approve-session'))
    expect(onApprove).toHaveBeenCalledWith({ accountId: 'dev:0', chainId: 11155111 })
  })

  test('behavior: reject calls back', () => {
    const { onReject, onApprove } = show()
    fireEvent.click(screen.getByTestId('reject-session'))
    expect(onReject).toHaveBeenCalledTimes(1)
    expect(onApprove).not.toHaveBeenCalled()
  })

  test('behavior: a v2 proposal lists its chains and methods before Approve, marking what is not granted', () => {
    const { onApprove } = show({
      version: 2,
      requestedChainId: 31337,
      proposal: {
        chains: ['eip155:31337', 'eip155:1', 'eip155:999', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
        evmChains: [31337, 1, 999],
        methods: ['personal_sign', 'eth_sendTransaction', 'eth_decrypt'],
        events: ['chainChanged'],
      },
    })
    expect(screen.getByTestId('protocol-version').textContent).toBe('WalletConnect v2')
    const chains = screen.getAllByTestId('requested-chain')
    expect(chains.map((li) => li.textContent)).toEqual([
      'Anvil dev chain (31337)',
      'Ethereum (1)',
      'Chain 999 — not supported, not shared',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp — not supported, not shared',
    ])
    const methods = screen.getAllByTestId('requested-method')
    expect(methods.map((li) => li.textContent)).toEqual([
      'personal_sign',
      'eth_sendTransaction',
      'eth_decrypt — not supported',
    ])
    fireEvent.click(screen.getByTestId('approve-session'))
    expect(onApprove).toHaveBeenCalledWith({ accountId: 'dev:0', chainId: 31337 })
  })

  test('behavior: a v2 proposal the wallet must refuse says why; only Reject is offered', () => {
    const refused = 'it requires the chain eip155:999, which this wallet does not support'
    const { onApprove, onReject } = show({
      version: 2,
      proposal: { chains: ['eip155:999'], evmChains: [999], methods: [], events: [], refused },
    })
    expect(screen.getByRole('alert').textContent).toBe(
      `This wallet cannot approve it: ${refused}. Reject to tell the dapp why.`,
    )
    expect((screen.getByTestId('approve-session') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByTestId('approve-session'))
    expect(onApprove).not.toHaveBeenCalled()
    fireEvent.click(screen.getByTestId('reject-session'))
    expect(onReject).toHaveBeenCalledTimes(1)
  })

  test('behavior: a v1 request shows its version and no proposal', () => {
    show({ version: 1 })
    expect(screen.getByTestId('protocol-version').textContent).toBe('WalletConnect v1')
    expect(screen.queryByTestId('proposal')).toBeNull()
  })

  test('behavior: a dapp without metadata is still shown', () => {
    show({ peer: null })
    expect(screen.getByTestId('peer-name').textContent).toBe('Unknown dapp')
    expect(screen.queryByTestId('peer-icon')).toBeNull()
  })
})
