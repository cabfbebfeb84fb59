import { SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { ProviderClient } from '../src/session.js'

type Events = {
  connect: { peerId: string; peerMeta: null; chainId: number; accounts: string[] }
  session_update: { chainId: number; accounts: string[] }
  disconnect: { message: string }
}
type Request = { method: string; params?: unknown }

/**
 * A stand-in for `@pairlink/client` at the provider's seam (the `ProviderClient` pick): the test approves,
 * rejects, updates and kills the session and answers the wallet requests. Real-client tests live in
 * `createProvider.viem.test.ts` / `createProvider.ethers.test.ts`.
 */
export function createFakeClient(
  initial: { connected?: boolean; chainId?: number; accounts?: string[] } = {},
) {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>()
  const emit = <event extends keyof Events>(event: event, payload: Events[event]) => {
    for (const listener of [...(listeners.get(event) ?? [])])
      (listener as (p: Events[event]) => void)(payload)
  }
  let pending: { resolve(value: Events['connect']): void; reject(error: unknown): void } | undefined
  const state = {
    connected: initial.connected ?? false,
    chainId: initial.chainId ?? 1,
    accounts: initial.accounts ?? [],
    rpcUrl: undefined as string | undefined,
  }
  const fake = {
    state,
    requests: [] as Request[],
    /** The options each wallet request came with (its time-out). */
    requestOptions: [] as ({ timeout?: number | undefined } | undefined)[],
    connects: [] as ({ chainId?: number } | undefined)[],
    kills: 0,
    /** Answers wallet requests; by default resolves `0x` + method. */
    answer: async (request: Request): Promise<unknown> => `0x${request.method}`,
    approve(session: { chainId: number; accounts: string[] }) {
      Object.assign(state, session, { connected: true })
      const payload = { peerId: 'wallet', peerMeta: null, ...session }
      emit('connect', payload)
      pending?.resolve(payload)
      pending = undefined
    },
    failConnect(error: unknown) {
      pending?.reject(error)
      pending = undefined
    },
    update(session: { chainId: number; accounts: string[] }) {
      Object.assign(state, session)
      emit('session_update', session)
    },
    kill(message = 'Session disconnected') {
      state.connected = false
      state.accounts = []
      emit('disconnect', { message })
    },
    emit,
  }
  const client = {
    get connected() {
      return state.connected
    },
    get accounts() {
      return state.accounts
    },
    get chainId() {
      return state.chainId
    },
    get rpcUrl() {
      return state.rpcUrl
    },
    ready: Promise.resolve(),
    on(event: keyof Events, listener: (payload: never) => void) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
      return () => set.delete(listener)
    },
    connect(parameters?: { chainId?: number }) {
      fake.connects.push(parameters)
      return new Promise((resolve, reject) => {
        pending = { resolve, reject }
      })
    },
    async request(request: Request, options?: { timeout?: number | undefined }) {
      if (!state.connected) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
      fake.requests.push(request)
      fake.requestOptions.push(options)
      return fake.answer(request)
    },
    async killSession() {
      fake.kills++
      fake.kill('Session Disconnected')
    },
  } as unknown as ProviderClient
  return { client, fake }
}
