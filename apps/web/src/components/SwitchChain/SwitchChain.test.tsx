import { RpcError } from '@pairlink/protocol'
import { DisconnectedError, UnrecognizedChainError } from '@pairlink/provider'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { fakeWallet, renderConnected } from '../../../test/wallet.js'
import { useSessionConnection } from '../../hooks/useSessionConnection.js'
import { queryClient } from '../../wagmiConfig.js'
import { SwitchChain, type SwitchChainProps } from './SwitchChain.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
})

/** The card as the connected view shows it: on wagmi's chain, which follows the provider's `chainChanged`. */
function View({ protocol }: { protocol?: SwitchChainProps['protocol'] }) {
  const connection = useSessionConnection()
  return connection ? (
    <SwitchChain chainId={connection.chainId} appChainId={31337} protocol={protocol} />
  ) : null
}

/**
 * The card over wagmi and Pairlink's connector, down to a provider whose `wallet_switchEthereumChain` the test
 * settles: what the provider does is its own tests' business (v1 asks the wallet, v2 switches among the session's
 * chains). A success moves the session, as the provider then says with `chainChanged`.
 */
async function switcher(protocol?: SwitchChainProps['protocol']) {
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined
  const wallet = fakeWallet((method, params) => {
    if (method !== 'wallet_switchEthereumChain') throw new Error(`unexpected ${method}`)
    const [{ chainId }] = params as [{ chainId: string }]
    return new Promise((resolve, reject) => {
      settle = {
        resolve: () => {
          resolve(null)
          wallet.setChain(Number(chainId))
        },
        reject,
      }
    })
  })
  await renderConnected(<View protocol={protocol} />, wallet)
  return {
    asked: () => wallet.asked.map(({ params }) => params),
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
    const { asked, resolve } = await switcher()
    expect(description()).toBe('The wallet decides; it may refuse chains it does not know.')
    await switchToEthereum()
    expect(asked()).toEqual([[{ chainId: '0x1' }]])
    expect(screen.getByTestId('switch-chain-button').textContent).toBe('Confirm in your wallet…')
    // The result shows once the session is on the chain (the provider's `chainChanged`, which wagmi follows).
    await resolve()
    expect(screen.getByTestId('switch-chain-result').textContent).toBe('The wallet switched to Ethereum (1).')
  })

  test('args: protocol 2 — the session moves among the approved chains; nothing says the wallet switched', async () => {
    const { asked, resolve } = await switcher(2)
    expect(description()).toBe(
      'Switches among the chains the wallet approved when it connected, without asking it. For another chain, disconnect and connect again to approve it.',
    )
    await switchToEthereum()
    expect(asked()).toEqual([[{ chainId: '0x1' }]])
    expect(screen.getByTestId('switch-chain-button').textContent).toBe('Switching…')
    await resolve()
    expect(screen.getByTestId('switch-chain-result').textContent).toBe(
      'This session is now on Ethereum (1); each request tells the wallet its chain.',
    )
    expect(screen.getByTestId('switch-chain').textContent).not.toMatch(/wallet (switched|is on)/)
  })

  test('error: v1 — the wallet refuses; the chain stays', async () => {
    const { reject } = await switcher()
    await switchToEthereum()
    await reject(new RpcError('User rejected', { code: 4001 }))
    expect(screen.getByTestId('switch-chain-error').textContent).toBe(
      'The wallet refused to switch to this chain. It stays on the current one.',
    )
    expect(screen.queryByTestId('switch-chain-result')).toBeNull()
  })

  test('error: protocol 2 — a chain the wallet did not approve says to connect again to approve it', async () => {
    const { reject } = await switcher(2)
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

  // The connector wraps every failed switch in viem's SwitchChainError, itself a 4902: the wallet's code decides.
  test('error: v1 — a wallet that does not know the chain (4902) says so', async () => {
    const { reject } = await switcher()
    await switchToEthereum()
    await reject(new RpcError('Unrecognized chain ID "0x1"', { code: 4902 }))
    expect(screen.getByTestId('switch-chain-error').textContent).toBe(
      'The wallet does not know this chain, so it stayed where it was.',
    )
  })

  test('error: the session ends meanwhile (4900) — disconnected, not an unknown chain', async () => {
    const { reject } = await switcher()
    await switchToEthereum()
    await reject(new DisconnectedError('Session currently disconnected'))
    expect(screen.getByTestId('switch-chain-error').textContent).toBe(
      'The wallet is disconnected. Connect it again to continue.',
    )
  })
})
