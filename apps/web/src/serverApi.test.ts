import { afterEach, describe, expect, test, vi } from 'vitest'
import { getMe, recordPayment, ServerError } from './serverApi.js'

const payment = { txHash: `0x${'ab'.repeat(32)}`, to: `0x${'cd'.repeat(20)}`, value: 1n } as const
const unseen = {
  error: 'The chain does not know this transaction (yet)',
  code: 'ERR_PAYMENT_UNKNOWN_TRANSACTION',
}
const recorded = { txHash: payment.txHash, status: 'pending' }

/** `fetch` (the unit's seam) answering each call with the next of `answers`, counting the calls. */
function answer(...answers: [status: number, body: unknown][]) {
  const calls: string[] = []
  vi.stubGlobal('fetch', async (path: string) => {
    calls.push(path)
    const [status, body] = answers[Math.min(calls.length, answers.length) - 1]!
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('recordPayment', () => {
  test('behavior: a hash the server has not seen yet is recorded once its node sees it', async () => {
    const calls = answer([422, unseen], [422, unseen], [201, recorded])
    expect(await recordPayment(payment, { interval: 1 })).toMatchObject(recorded)
    expect(calls).toEqual(['/api/payments', '/api/payments', '/api/payments'])
  })

  test('error: any other refusal is thrown at once, with its code', async () => {
    const calls = answer([422, { error: 'This transaction pays another recipient than the one asked' }])
    const error = await recordPayment(payment, { interval: 1 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ status: 422, code: undefined })
    expect(calls).toHaveLength(1)
  })

  test('error: a hash still unseen when patience runs out is thrown as the server said it', async () => {
    const calls = answer([422, unseen])
    const error = await recordPayment(payment, { patience: 30, interval: 5 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 422, code: 'ERR_PAYMENT_UNKNOWN_TRANSACTION' })
    expect(calls.length).toBeGreaterThan(1)
  })
})

describe('getMe', () => {
  test('default: the signed-in account', async () => {
    answer([200, { signedIn: true, address: payment.to, chainId: 31337, firstSeen: null }])
    expect(await getMe()).toEqual({ address: payment.to, chainId: 31337 })
  })

  test('behavior: signed out is an answer, not an error', async () => {
    answer([200, { signedIn: false }])
    expect(await getMe()).toBeUndefined()
  })
})
