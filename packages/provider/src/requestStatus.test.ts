import { createClient, dappActions, type ModalAdapter, RequestTimeoutError } from '@pairlink/client'
import { waitFor } from '@pairlink/test-kit'
import { ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import * as v1Module from '@walletconnect/client'
import { toHex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { account, startV2Stack } from '../test/walletKit.js'
import { createProvider } from './createProvider.js'
import type { RequestStatusEvent } from './requestStatus.js'
import { createV2Client, type V2Client } from './v2Client.js'

// The provider's `requestStatus` over a real relay/bridge (one server), anvil, and the published wallets as the other
// side: WalletKit 1.6.0 over v2, @walletconnect/client 1.8.0 over v1.
let stack: Awaited<ReturnType<typeof startV2Stack>>
const cleanup: Array<() => unknown> = []
beforeAll(async () => {
  stack = await startV2Stack()
})
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close()
})
afterAll(() => stack.stop())

const message = toHex('Hello from the lifecycle test')
const statuses = (events: RequestStatusEvent[]) => events.map((event) => event.status)

function record(provider: ReturnType<typeof createProvider>) {
  const events: RequestStatusEvent[] = []
  provider.on('requestStatus', (event) => events.push(event))
  return events
}

describe('v2, WalletKit as the wallet', () => {
  async function v2Provider(walletTimeout?: number) {
    const client: V2Client = createV2Client({ relayUrl: stack.relayUrl, modal: stack.modal, chains: [1] })
    cleanup.push(() => client.close())
    const provider = createProvider({
      client,
      chainId: ANVIL_CHAIN_ID,
      rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
      walletTimeout,
    })
    await provider.enable()
    return { provider, events: record(provider) }
  }

  test('behavior: sent, relayed, answered, in order, for the wallet’s signature', async () => {
    const { provider, events } = await v2Provider()
    const before = Date.now()
    await provider.request({ method: 'personal_sign', params: [message, account.address] })
    expect(statuses(events)).toEqual(['sent', 'relayed', 'answered'])
    const [first] = events
    expect(events.every((event) => event.id === first?.id && event.method === 'personal_sign')).toBe(true)
    // The SDK's default request expiry (900 s) is the deadline when the provider has no time-out of its own.
    expect(first?.expiresAt).toBeGreaterThanOrEqual(before + 900_000)
    for (const [index, event] of events.entries())
      expect(event.at).toBeGreaterThanOrEqual(events[index - 1]?.at ?? before)
  })

  test('behavior: a refusal is the wallet’s answer', async () => {
    const { provider, events } = await v2Provider()
    stack.behavior.rejectRequests = true
    try {
      await expect(
        provider.request({ method: 'personal_sign', params: [message, account.address] }),
      ).rejects.toMatchObject({ code: 4001 })
    } finally {
      stack.behavior.rejectRequests = false
    }
    expect(statuses(events)).toEqual(['sent', 'relayed', 'answered'])
  })

  test('behavior: a wallet gone after pairing ends in expired at the deadline, after the relay kept it', async () => {
    const { provider, events } = await v2Provider(1500)
    await stack.wallet.core.relayer.transportClose()
    const sent = provider.request({ method: 'personal_sign', params: [message, account.address] })
    await expect(sent).rejects.toBeInstanceOf(RequestTimeoutError)
    expect(statuses(events)).toEqual(['sent', 'relayed', 'expired'])
    const expired = events.at(-1)
    expect(expired?.expiresAt).toBe(events[0]?.expiresAt)
    expect(expired?.at).toBeGreaterThanOrEqual(expired?.expiresAt ?? Number.POSITIVE_INFINITY)
  })
})

// The CJS build sits behind one or two `default`s depending on the loader.
type V1Wallet = {
  on(event: string, callback: (error: Error | null, payload: { id: number; params: unknown[] }) => void): void
  approveSession(parameters: { chainId: number; accounts: string[] }): void
  approveRequest(parameters: { id: number; result: unknown }): void
  transportClose(): void
}
const loaded = v1Module as unknown as { default: { default?: unknown } }
const WalletConnect = (loaded.default.default ?? loaded.default) as new (options: object) => V1Wallet

describe('v1, @walletconnect/client 1.8.0 as the wallet', () => {
  async function v1Provider(walletTimeout?: number) {
    let wallet: V1Wallet | undefined
    const modal: ModalAdapter = {
      open(uri) {
        wallet = new WalletConnect({
          uri,
          clientMeta: { name: 'v1 wallet', description: '', url: 'https://w.example', icons: [] },
        })
        const opened = wallet
        cleanup.push(() => opened.transportClose())
        opened.on('session_request', () =>
          opened.approveSession({ chainId: ANVIL_CHAIN_ID, accounts: [account.address] }),
        )
        opened.on('call_request', async (error, request) => {
          if (error) return
          const signature = await account.signMessage({
            message: { raw: request.params[0] as `0x${string}` },
          })
          opened.approveRequest({ id: request.id, result: signature })
        })
      },
      close() {},
    }
    const client = createClient({
      bridge: stack.relayUrl.replace(/^ws/, 'http'),
      modal,
      storage: false,
    }).extend(dappActions)
    cleanup.push(() => client.close())
    const provider = createProvider({
      client,
      chainId: ANVIL_CHAIN_ID,
      rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
      walletTimeout,
    })
    await provider.enable()
    return { provider, events: record(provider), wallet: await waitFor(() => wallet) }
  }

  test('behavior: sent, answered (v1’s bridge acknowledges nothing: no relayed)', async () => {
    const { provider, events } = await v1Provider()
    await provider.request({ method: 'personal_sign', params: [message, account.address] })
    expect(statuses(events)).toEqual(['sent', 'answered'])
    expect(events[0]?.expiresAt).toBeUndefined()
  })

  test('behavior: a wallet gone after pairing ends in expired at the provider’s time-out', async () => {
    const { provider, events, wallet } = await v1Provider(1000)
    wallet.transportClose()
    const sent = provider.request({ method: 'personal_sign', params: [message, account.address] })
    await expect(sent).rejects.toBeInstanceOf(RequestTimeoutError)
    expect(statuses(events)).toEqual(['sent', 'expired'])
    expect(events[1]?.at).toBeGreaterThanOrEqual(events[0]?.expiresAt ?? Number.POSITIVE_INFINITY)
  })
})

test('behavior: v2: a walletTimeout within the SDK’s bounds is the request’s expiry on the wire', async () => {
  const client: V2Client = createV2Client({ relayUrl: stack.relayUrl, modal: stack.modal, chains: [1] })
  cleanup.push(() => client.close())
  const provider = createProvider({
    client,
    chainId: ANVIL_CHAIN_ID,
    rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
    walletTimeout: 300_000,
  })
  await provider.enable()
  const events = record(provider)
  const seen: number[] = []
  stack.wallet.on('session_request', ({ params }) => seen.push(params.request.expiryTimestamp ?? 0))
  await provider.request({ method: 'personal_sign', params: [message, account.address] })
  // The wallet was told the same deadline the dapp shows (whole seconds on the wire).
  expect(seen).toHaveLength(1)
  expect(Math.abs((seen[0] ?? 0) * 1000 - (events[0]?.expiresAt ?? 0))).toBeLessThan(2000)
})
