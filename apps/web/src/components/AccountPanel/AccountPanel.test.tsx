import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { AccountPanel } from './AccountPanel.js'

afterEach(cleanup)

const session = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 31337,
  peerMeta: { name: 'Pairlink Wallet', description: '', url: 'http://127.0.0.1/wallet', icons: [] },
} as const

describe('AccountPanel', () => {
  test('default: address, wallet, chain, balance, block and bridge state', () => {
    render(
      <AccountPanel
        session={{ ...session, peerMeta: { ...session.peerMeta, icons: [] } }}
        appChainId={31337}
        balance={10n ** 22n}
        blockNumber={42n}
        transport="open"
        onDisconnect={() => {}}
      />,
    )
    expect(screen.getByTestId('account-address').textContent).toBe(session.address)
    expect(screen.getByTestId('wallet-name').textContent).toBe('Pairlink Wallet')
    expect(screen.getByTestId('wallet-icon').textContent).toBe('P')
    expect(screen.getByTestId('chain-name').textContent).toBe('Anvil dev chain (31337)')
    expect(screen.getByTestId('account-balance').textContent).toBe('10,000 ETH')
    expect(screen.getByTestId('block-number').textContent).toBe('#42')
    expect(screen.getByTestId('bridge-state').textContent).toBe('Connected')
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy()
  })

  test('behavior: before the first block and while the bridge reconnects', () => {
    render(
      <AccountPanel
        session={{ ...session, peerMeta: null }}
        appChainId={31337}
        balance={undefined}
        blockNumber={undefined}
        transport="connecting"
        onDisconnect={() => {}}
      />,
    )
    expect(screen.getByTestId('wallet-name').textContent).toBe('Unnamed wallet')
    expect(screen.getByTestId('account-balance').textContent).toBe('Loading…')
    expect(screen.getByTestId('block-number').textContent).toBe('Waiting…')
    expect(screen.getByTestId('bridge-state').textContent).toBe('Reconnecting…')
  })

  test('behavior: a wallet on another chain than the app reads gets a warning, not the app chain’s figures', () => {
    render(
      <AccountPanel
        session={{ ...session, chainId: 11155111, peerMeta: null }}
        appChainId={31337}
        balance={10n ** 22n}
        blockNumber={42n}
        transport="open"
        onDisconnect={() => {}}
      />,
    )
    expect(screen.getByTestId('chain-mismatch').textContent).toBe(
      'The wallet is on Sepolia (11155111), but this app reads Anvil dev chain (31337). Switch the wallet back to Anvil dev chain (31337) to see its balance and send payments here.',
    )
    expect(screen.getByTestId('account-balance').textContent).toBe('Not read on this chain')
    expect(screen.getByTestId('account-balance').getAttribute('data-wei')).toBeNull()
    expect(screen.getByTestId('block-number').textContent).toBe('Not read on this chain')
  })

  test('args: protocol 2 — a session the app moved to another chain is said to be the session’s, not the wallet’s', () => {
    // Over v2 the app switches among the chains the wallet approved: the wallet's page still shows its own chain.
    render(
      <AccountPanel
        session={{ ...session, chainId: 1, peerMeta: null }}
        appChainId={31337}
        balance={10n ** 22n}
        blockNumber={42n}
        transport="open"
        protocol={2}
        onDisconnect={() => {}}
      />,
    )
    expect(screen.getByTestId('chain-mismatch').textContent).toBe(
      'This session is on Ethereum (1), but this app reads Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) to see its balance and send payments here.',
    )
    expect(screen.getByTestId('chain-mismatch').textContent).not.toMatch(/wallet/)
    expect(screen.getByTestId('account-balance').textContent).toBe('Not read on this chain')
    expect(screen.getByTestId('block-number').textContent).toBe('Not read on this chain')
  })

  test('args: protocol — the panel says which WalletConnect generation the session uses, or a browser wallet', () => {
    const panel = (props: { protocol?: 1 | 2; browserWallet?: boolean }) => (
      <AccountPanel
        session={{ ...session, peerMeta: { ...session.peerMeta, icons: [] } }}
        appChainId={31337}
        balance={undefined}
        blockNumber={undefined}
        transport="open"
        onDisconnect={() => {}}
        {...props}
      />
    )
    const { rerender } = render(panel({}))
    expect(screen.getByTestId('session-protocol').textContent).toBe('WalletConnect v1')
    expect(screen.getByText('Bridge')).toBeTruthy()
    rerender(panel({ protocol: 2 }))
    expect(screen.getByTestId('session-protocol').textContent).toBe('WalletConnect v2')
    expect(screen.getByText('Relay')).toBeTruthy()
    expect(screen.getByTestId('bridge-state').textContent).toBe('Connected')
    rerender(panel({ browserWallet: true }))
    // A wallet in this browser: no WalletConnect generation, no socket of the app's to show.
    expect(screen.getByTestId('session-protocol').textContent).toBe('Browser wallet')
    expect(screen.queryByTestId('bridge-state')).toBeNull()
  })
})
