import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, test } from 'vitest'
import { account, configFor, fakeWallet, Providers } from '../../test/wallet.js'
import { queryClient } from '../wagmiConfig.js'
import { useSessionConnection } from './useSessionConnection.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
})

/** The hook in the providers of the connected view, over a fresh wagmi config on the fake wallet's session. */
function setup(chainId = 31337) {
  const wallet = fakeWallet(undefined, chainId)
  const config = configFor(wallet)
  const statuses: string[] = []
  config.subscribe(
    (state) => state.status,
    (status) => statuses.push(status),
  )
  const wrapper = ({ children }: { children: ReactNode }) => <Providers config={config}>{children}</Providers>
  const hook = renderHook(() => useSessionConnection(), { wrapper })
  return { wallet, config, statuses, hook }
}

describe('useSessionConnection', () => {
  test('default: wagmi connects to the provider’s session on mount, asking the wallet and the node nothing', async () => {
    const { wallet, hook, statuses } = setup()
    await waitFor(() => expect(hook.result.current).toEqual({ address: account.address, chainId: 31337 }))
    expect(statuses).toEqual(['connecting', 'connected'])
    expect(wallet.asked).toEqual([])
  })

  test('behavior: once connected, rendering again never reconnects (no "reconnecting" to hide the cards)', async () => {
    const { hook, statuses } = setup()
    await waitFor(() => expect(hook.result.current).toBeDefined())
    hook.rerender()
    hook.rerender()
    await act(async () => {})
    expect(statuses).toEqual(['connecting', 'connected'])
  })

  test('behavior: follows the session’s chain, and ends with it', async () => {
    const { wallet, hook } = setup()
    await waitFor(() => expect(hook.result.current).toBeDefined())
    act(() => wallet.setChain(11155111))
    expect(hook.result.current).toEqual({ address: account.address, chainId: 11155111 })
    act(() => wallet.end())
    expect(hook.result.current).toBeUndefined()
  })

  test('behavior: a session on a chain the app does not offer is still the connection’s chain', async () => {
    const { hook } = setup(100)
    await waitFor(() => expect(hook.result.current).toEqual({ address: account.address, chainId: 100 }))
  })
})
