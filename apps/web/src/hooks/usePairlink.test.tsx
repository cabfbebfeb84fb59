import type { ConnectReturnType } from '@pairlink/client'
import type { Cacao } from '@pairlink/protocol/v2'
import type { V2ConnectParameters } from '@pairlink/provider'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Pairlink } from '../createPairlink.js'
import type { Protocol } from '../protocolChoice.js'
import { usePairlink } from './usePairlink.js'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const EXPIRES = '2030-01-01T00:10:00.000Z'
const cacao = (chainId: number): Cacao => ({
  h: { t: 'caip122' },
  p: {
    iss: `did:pkh:eip155:${chainId}:${ADDRESS}`,
    domain: location.host,
    aud: location.origin,
    version: '1',
    nonce: 'abcdef0123456789',
    iat: '2030-01-01T00:00:00.000Z',
  },
  s: { t: 'eip191', s: '0x00' },
})

/**
 * The session client at the hook's seam: `connect` records its parameters and answers with `answer` after emitting
 * `connect`, as the v2 client does.
 */
function fakePairlink(protocol: Protocol, answer: Partial<ConnectReturnType> & { cacaos?: Cacao[] } = {}) {
  const listeners = new Map<string, ((payload: never) => void)[]>()
  const connects: (V2ConnectParameters | undefined)[] = []
  const result = {
    peerId: 'wallet',
    peerMeta: { name: 'Wallet', description: '', url: 'https://wallet.example', icons: [] },
    chainId: 31337,
    accounts: [ADDRESS],
    ...answer,
  }
  const client = {
    connected: false,
    accounts: [],
    chainId: 0,
    peerMeta: null,
    transportState: 'open' as const,
    ready: Promise.resolve(),
    on(event: string, listener: (payload: never) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return () => {}
    },
    async connect(parameters?: V2ConnectParameters) {
      connects.push(parameters)
      for (const listener of listeners.get('connect') ?? []) listener(result as never)
      return result
    },
  }
  const provider = { chainId: 31337, on() {}, removeListener() {}, async disconnect() {} }
  const config = {
    bridge: '',
    rpcUrl: '',
    chainId: 31337,
    registryUrl: '',
    relayNetwork: 'pairlink' as const,
  }
  const emit = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload as never)
  }
  return { pairlink: { client, provider, config, protocol } as unknown as Pairlink, connects, client, emit }
}

/** The server (`fetch`, the other seam): a nonce (or none), and a verify that answers `verify`; bodies kept. */
function server(options: { nonce?: boolean; verify?: [number, unknown] } = {}) {
  const calls: { path: string; body?: unknown }[] = []
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    calls.push({ path, ...(init?.body ? { body: JSON.parse(String(init.body)) } : {}) })
    if (path === '/api/nonce')
      return options.nonce === false
        ? new Response('{"error":"down"}', { status: 503 })
        : new Response(JSON.stringify({ nonce: 'abcdef0123456789', expiresAt: EXPIRES }))
    if (path === '/api/verify') {
      const [status, body] = options.verify ?? [200, { address: ADDRESS, chainId: 31337 }]
      return new Response(JSON.stringify(body), { status })
    }
    return new Response('{}', { status: 404 })
  })
  return calls
}

describe('usePairlink: one-click auth', () => {
  test('default: over v2 Connect asks for the sign-in with the session; the CACAO for the chain goes to verify', async () => {
    const calls = server()
    const { pairlink, connects } = fakePairlink(2, { cacaos: [cacao(1), cacao(31337)] })
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    expect(connects).toEqual([
      {
        chainId: 31337,
        authenticate: {
          nonce: 'abcdef0123456789',
          statement: 'Sign in to Pairlink.',
          domain: location.host,
          uri: location.origin,
          exp: EXPIRES,
          verifyCacao: expect.any(Function),
        },
      },
    ])
    await waitFor(() => expect(hook.result.current.oneClick?.status).toBe('signed-in'))
    expect(calls.find(({ path }) => path === '/api/verify')?.body).toEqual({ cacao: cacao(31337) })
    expect(hook.result.current.status).toBe('connected')
    expect(hook.result.current.notice).toEqual({
      tone: 'success',
      text: `Connected to Wallet and signed in as ${ADDRESS}.`,
    })
  })

  test('behavior: the server refuses the CACAO → connected, signed out, in its words', async () => {
    server({ verify: [401, { error: 'The signature does not match the address' }] })
    const { pairlink } = fakePairlink(2, { cacaos: [cacao(31337)] })
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    await waitFor(() => expect(hook.result.current.oneClick?.status).toBe('refused'))
    expect(hook.result.current.status).toBe('connected')
    expect(hook.result.current.notice).toEqual({
      tone: 'error',
      text: 'Connected to Wallet, but not signed in: The signature does not belong to this account, so you are not signed in.',
    })
  })

  test('behavior: a wallet without one-click auth (no CACAOs) → connected, no sign-in; nothing verified', async () => {
    const calls = server()
    const { pairlink } = fakePairlink(2)
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    expect(hook.result.current.oneClick).toBeUndefined()
    expect(hook.result.current.notice).toEqual({ tone: 'success', text: 'Connected to Wallet.' })
    expect(calls.map(({ path }) => path)).toEqual(['/api/nonce'])
  })

  test('behavior: no nonce (server down) → a plain connect', async () => {
    server({ nonce: false })
    const { pairlink, connects } = fakePairlink(2)
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    expect(connects).toEqual([{ chainId: 31337 }])
    expect(hook.result.current.status).toBe('connected')
  })

  test('behavior: over v1 no nonce is asked and no sign-in rides along', async () => {
    const calls = server()
    const { pairlink, connects } = fakePairlink(1)
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    expect(connects).toEqual([{ chainId: 31337 }])
    expect(calls).toEqual([])
  })
})

describe('usePairlink: relay outages', () => {
  test('behavior: a connect that failed only because the relay was unreachable is marked so, and goes when the relay is back', async () => {
    server({ nonce: false })
    const { pairlink, client, emit } = fakePairlink(2)
    client.connect = async () => {
      throw Object.assign(new Error('relay did not answer'), { code: 'ERR_RELAY_TIMEOUT' })
    }
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    expect(hook.result.current.notice).toEqual({
      tone: 'error',
      text: "Can't reach the relay right now. Check your connection and try again.",
      outage: true,
    })
    act(() => emit('transport', { state: 'open' }))
    expect(hook.result.current.notice).toBeUndefined()
  })

  test('behavior: any other failed connect stays said when the socket opens', async () => {
    server({ nonce: false })
    const { pairlink, client, emit } = fakePairlink(2)
    client.connect = async () => {
      throw Object.assign(new Error('no'), { code: 'ERR_SESSION_REJECTED' })
    }
    const hook = renderHook(() => usePairlink(pairlink))
    await act(() => hook.result.current.connect())
    const notice = hook.result.current.notice
    expect(notice?.outage).toBeUndefined()
    act(() => emit('transport', { state: 'open' }))
    expect(hook.result.current.notice).toBe(notice)
  })
})
