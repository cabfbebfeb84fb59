import { RpcError } from '@pairlink/protocol'
import { UnrecognizedChainError } from '@pairlink/provider'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createWalletClient, custom } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { SwitchChain } from './SwitchChain.js'

afterEach(cleanup)

/**
 * viem's wallet client over an EIP-1193 seam whose `wallet_switchEthereumChain` the test settles: what the provider
 * does is its own tests' business (v1 asks the wallet, v2 switches among the session's chains).
 */
function switcher() {
  const asked: unknown[] = []
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined
  const walletClient = createWalletClient({
    transport: custom({
      request: ({ method, params }) => {
        if (method !== 'wallet_switchEthereumChain') throw new Error(`unexpected ${method}`)
        asked.push(params)
        return new Promise((resolve, reject) => {
          settle = { resolve: () => resolve(null), reject }
        })
      },
    }),
  })
  return {
    walletClient,
    asked,
    resolve: () => act(async () => settle?.resolve()),
    reject: (error: unknown) => act(async () => settle?.reject(error)),
  }
}

const description = () => screen.getByTestId('switch-chain').querySelector('p.muted')?.textContent

/** Chooses Ethereum (1) and presses Switch chain. */
async function switchToEthereum() {
  fireEvent.change(screen.getByTestId('switch-chain-select'), { target: { value: '1' } })
  await act(async () => fireEvent.click(screen.getByTestId('switch-chain-button')))
}

describe('SwitchChain', () => {
  test('default: v1 — the wallet is asked, and the wallet switched', async () => {
    const { walletClient, asked, resolve } = switcher()
    const { rerender } = render(
      <SwitchChain walletClient={walletClient} chainId={31337} appChainId={31337} />,
    )
    expect(description()).toBe('The wallet decides; it may refuse chains it does not know.')
    await switchToEthereum()
    expect(asked).toEqual([[{ chainId: '0x1' }]])
    expect(screen.getByTestId('switch-chain-button').textContent).toBe('Confirm in your wallet…')
    await resolve()
    // The result shows once the session is on the chain (the wallet's session update).
    rerender(<SwitchChain walletClient={walletClient} chainId={1} appChainId={31337} />)
    expect(screen.getByTestId('switch-chain-result').textContent).toBe('The wallet switched to Ethereum (1).')
  })

  test('args: protocol 2 — the session moves among the approved chains; nothing says the wallet switched', async () => {
    const { walletClient, asked, resolve } = switcher()
    const { rerender } = render(
      <SwitchChain walletClient={walletClient} chainId={31337} appChainId={31337} protocol={2} />,
    )
    expect(description()).toBe(
      'Switches among the chains the wallet approved when it connected, without asking it. For another chain, disconnect and connect again to approve it.',
    )
    await switchToEthereum()
    expect(asked).toEqual([[{ chainId: '0x1' }]])
    expect(screen.getByTestId('switch-chain-button').textContent).toBe('Switching…')
    await resolve()
    rerender(<SwitchChain walletClient={walletClient} chainId={1} appChainId={31337} protocol={2} />)
    expect(screen.getByTestId('switch-chain-result').textContent).toBe(
      'This session is now on Ethereum (1); each request tells the wallet its chain.',
    )
    expect(screen.getByTestId('switch-chain').textContent).not.toMatch(/wallet (switched|is on)/)
  })

  test('error: v1 — the wallet refuses; the chain stays', async () => {
    const { walletClient, reject } = switcher()
    render(<SwitchChain walletClient={walletClient} chainId={31337} appChainId={31337} />)
    await switchToEthereum()
    await reject(new RpcError('User rejected', { code: 4001 }))
    expect(screen.getByTestId('switch-chain-error').textContent).toBe(
      'The wallet refused to switch to this chain. It stays on the current one.',
    )
    expect(screen.queryByTestId('switch-chain-result')).toBeNull()
  })

  test('error: protocol 2 — a chain the wallet did not approve says to connect again to approve it', async () => {
    const { walletClient, reject } = switcher()
    render(<SwitchChain walletClient={walletClient} chainId={31337} appChainId={31337} protocol={2} />)
    await switchToEthereum()
    await reject(
      new UnrecognizedChainError(
        'Chain 1 (eip155:1) is not in this session: the wallet approved eip155:31337. Disconnect and connect again to approve it.',
        { approvedChains: ['eip155:31337'] },
      ),
    )
    expect(screen.getByTestId('switch-chain-error').textContent).toBe(
      'The wallet did not approve this chain when it connected, so the app stays on the current one. To use it, disconnect and connect again, approving that chain in the wallet.',
    )
    expect(screen.queryByTestId('switch-chain-result')).toBeNull()
  })
})
