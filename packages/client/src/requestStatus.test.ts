import { RpcError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { createDapp, dappMeta, next, walletMeta } from '../test/utils.js'
import { createV1, type V1Connector } from '../test/v1.js'
import { RequestTimeoutError } from './errors.js'
import { createStatusReporter, type RequestStatusEvent } from './requestStatus.js'

// A v1 request's steps (`onStatus`) with the published @walletconnect/client 1.8.0 as the wallet, on our bridge.
let bridge: TestBridge
const cleanup: Array<() => unknown> = []
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(async () => {
  for (const close of cleanup) await close()
  await bridge.stop()
})

const address = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** Our dapp paired with a 1.8.0 wallet that answers `personal_sign` with `answer` (an error when it is one). */
async function paired(answer: (id: number) => void = () => {}) {
  const dapp = createDapp({ bridge: bridge.url, clientMeta: dappMeta, storage: false })
  cleanup.push(() => dapp.close())
  const uri = await dapp.createSession({ chainId: 1 })
  const wallet: V1Connector = createV1({ uri, clientMeta: walletMeta })
  cleanup.push(() => wallet.transportClose())
  wallet.on('session_request', () => wallet.approveSession({ chainId: 1, accounts: [address] }))
  wallet.on('call_request', (_error, request) => answer(request.id))
  const connected = next(dapp, 'connect')
  await connected
  return { dapp, wallet }
}

const sign = { method: 'personal_sign', params: ['0x68690a', address] }
const statuses = (events: RequestStatusEvent[]) => events.map((event) => event.status)

test('default: sent, then answered (v1: no relayed), with the request’s id and method', async () => {
  let wallet: V1Connector | undefined
  const setup = await paired((id) => wallet?.approveRequest({ id, result: '0xsigned' }))
  wallet = setup.wallet
  const events: RequestStatusEvent[] = []
  const result = await setup.dapp.request(sign, { onStatus: (event) => events.push(event) })
  expect(result).toBe('0xsigned')
  expect(statuses(events)).toEqual(['sent', 'answered'])
  expect(events.map(({ method }) => method)).toEqual(['personal_sign', 'personal_sign'])
  expect(events[0]?.id).toBe(events[1]?.id)
  expect(events[0]?.expiresAt).toBeUndefined()
})

test('behavior: the wallet’s refusal is its answer', async () => {
  let wallet: V1Connector | undefined
  const setup = await paired((id) => wallet?.rejectRequest({ id, error: { message: 'User rejected' } }))
  wallet = setup.wallet
  const events: RequestStatusEvent[] = []
  await expect(setup.dapp.request(sign, { onStatus: (event) => events.push(event) })).rejects.toBeInstanceOf(
    RpcError,
  )
  expect(statuses(events)).toEqual(['sent', 'answered'])
})

test('behavior: no answer before the time-out: expired at expiresAt', async () => {
  const { dapp } = await paired()
  const events: RequestStatusEvent[] = []
  const before = Date.now()
  await expect(
    dapp.request(sign, { timeout: 300, onStatus: (event) => events.push(event) }),
  ).rejects.toBeInstanceOf(RequestTimeoutError)
  expect(statuses(events)).toEqual(['sent', 'expired'])
  expect(events[0]?.expiresAt).toBeGreaterThanOrEqual(before + 300)
  expect(events[1]?.at).toBeGreaterThanOrEqual(events[0]?.expiresAt ?? Number.POSITIVE_INFINITY)
})

test('behavior: cancelled (an aborted signal) is failed, and nothing follows', async () => {
  let answer: ((id: number) => void) | undefined
  const setup = await paired((id) => answer?.(id))
  const events: RequestStatusEvent[] = []
  const controller = new AbortController()
  const sent = setup.dapp.request(sign, {
    signal: controller.signal,
    onStatus: (event) => events.push(event),
  })
  await waitFor(() => events.length === 1)
  controller.abort(new Error('cancelled'))
  await expect(sent).rejects.toThrow('cancelled')
  expect(statuses(events)).toEqual(['sent', 'failed'])
})

test('behavior: each step once and in order; a throwing listener does not break the request', () => {
  const events: string[] = []
  const report = createStatusReporter(
    (event) => {
      events.push(event.status)
      throw new Error('listener')
    },
    1,
    'personal_sign',
    undefined,
  )
  for (const status of ['sent', 'sent', 'relayed', 'answered', 'relayed', 'expired'] as const) report(status)
  expect(events).toEqual(['sent', 'relayed', 'answered'])
})
