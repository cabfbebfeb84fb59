import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { type Hex, verifyMessage } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { account, connectedConfig, fakeWallet, Providers, signs } from '../../test/wallet.js'
import { en } from '../i18n/en.js'
import { ServerError } from '../serverApi.js'
import { queryClient } from '../wagmiConfig.js'
import type { OneClickSignIn } from './usePairlink.js'
import { useSignIn } from './useSignIn.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
  vi.unstubAllGlobals()
})

/** The server (`fetch`, the unit's other seam): not signed in, a nonce, and a verify that accepts; bodies kept. */
function server() {
  const verified: { message: string; signature: Hex }[] = []
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 })
    if (path === '/api/me') return json({ signedIn: false })
    if (path === '/api/nonce')
      return json({ nonce: 'abcdef0123456789', expiresAt: '2030-01-01T00:10:00.000Z' })
    if (path === '/api/verify') {
      verified.push(JSON.parse(String(init.body)))
      return json({ address: account.address, chainId: 31337 })
    }
    return new Response('{}', { status: 404 })
  })
  return verified
}

/** useSignIn with wagmi connected to a fake wallet answering with `answer`. */
async function setup(answer = signs) {
  const wallet = fakeWallet(answer)
  const config = await connectedConfig(wallet)
  const wrapper = ({ children }: { children: ReactNode }) => <Providers config={config}>{children}</Providers>
  const hook = renderHook(() => useSignIn(account.address, 31337), { wrapper })
  await waitFor(() => expect(hook.result.current.status).toBe('signed-out'))
  return { wallet, hook }
}

describe('useSignIn', () => {
  test('default: the wallet signs the EIP-4361 message as the account (through wagmi); the server verifies it', async () => {
    const verified = server()
    const { wallet, hook } = await setup()
    await act(() => hook.result.current.signIn())
    expect(hook.result.current.status).toBe('signed-in')
    expect(hook.result.current.message).toEqual({ tone: 'success', text: `Signed in as ${account.address}.` })
    expect(wallet.asked.map(({ method }) => method)).toEqual(['personal_sign'])
    const [sent] = verified
    expect(parseSiweMessage(sent?.message ?? '')).toMatchObject({
      address: account.address,
      chainId: 31337,
      domain: location.host,
      nonce: 'abcdef0123456789',
    })
    expect(
      await verifyMessage({
        address: account.address,
        message: sent?.message ?? '',
        signature: sent?.signature ?? '0x',
      }),
    ).toBe(true)
  })

  test('behavior: Cancel stops the wait; a signature that comes later is not shown, nor sent to the server', async () => {
    const verified = server()
    let answer: (() => void) | undefined
    const { hook } = await setup(
      (method, params) => new Promise((resolve) => (answer = () => resolve(signs(method, params)))),
    )
    let signing!: Promise<void>
    act(() => {
      signing = hook.result.current.signIn()
    })
    await waitFor(() => expect(answer).toBeDefined())
    expect(hook.result.current.status).toBe('signing')
    act(() => hook.result.current.cancel())
    expect(hook.result.current.message).toEqual({ tone: 'error', text: en.stopped_waiting })
    await act(async () => {
      answer?.()
      await signing
    })
    expect(hook.result.current.status).toBe('signed-out')
    expect(hook.result.current.message).toEqual({ tone: 'error', text: en.stopped_waiting })
    // A verify now would open a server session the page never shows, signed in after a reload.
    expect(verified).toEqual([])
  })

  test('args: oneClick — the connection signed in: checking while the server verifies, then signed in; no wallet prompt, no GET /api/me', async () => {
    // The server still holds an older account's session: its answer must not undo the connection's sign-in.
    const calls: string[] = []
    vi.stubGlobal('fetch', async (path: string) => {
      calls.push(path)
      return path === '/api/me'
        ? new Response(JSON.stringify({ signedIn: true, address: `0x${'11'.repeat(20)}`, chainId: 31337 }))
        : new Response('{}', { status: 404 })
    })
    const wallet = fakeWallet(signs)
    const config = await connectedConfig(wallet)
    const wrapper = ({ children }: { children: ReactNode }) => (
      <Providers config={config}>{children}</Providers>
    )
    const hook = renderHook(
      ({ oneClick }: { oneClick: OneClickSignIn }) => useSignIn(account.address, 31337, oneClick),
      { wrapper, initialProps: { oneClick: { status: 'verifying' } } },
    )
    expect(hook.result.current.status).toBe('checking')
    hook.rerender({
      oneClick: { status: 'signed-in', account: { address: account.address, chainId: 31337 } },
    })
    await waitFor(() => expect(hook.result.current.status).toBe('signed-in'))
    expect(hook.result.current.account).toEqual({ address: account.address, chainId: 31337 })
    expect(hook.result.current.message).toEqual({ tone: 'success', text: `Signed in as ${account.address}.` })
    expect(wallet.asked).toEqual([])
    // Not asked at all: a signed-out answer sent during the verify would clear the cookie it sets.
    await act(async () => {})
    expect(hook.result.current.status).toBe('signed-in')
    expect(calls).toEqual([])
  })

  test("args: oneClick — the server refused the connection's sign-in: signed out, in its words; Sign in works as usual", async () => {
    const verified = server()
    const wallet = fakeWallet(signs)
    const config = await connectedConfig(wallet)
    const wrapper = ({ children }: { children: ReactNode }) => (
      <Providers config={config}>{children}</Providers>
    )
    // usePairlink's state: one object per outcome, as React keeps it.
    const refused: OneClickSignIn = {
      status: 'refused',
      error: new ServerError('verify', 401, 'The signature does not match the address'),
    }
    const hook = renderHook(() => useSignIn(account.address, 31337, refused), { wrapper })
    await waitFor(() => expect(hook.result.current.status).toBe('signed-out'))
    expect(hook.result.current.message).toEqual({
      tone: 'error',
      text: 'The signature does not belong to this account, so you are not signed in.',
    })
    await act(() => hook.result.current.signIn())
    expect(hook.result.current.status).toBe('signed-in')
    expect(verified).toHaveLength(1)
  })
})
