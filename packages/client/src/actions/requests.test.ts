import { InvalidJsonRpcError, SessionError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import { account, createWallet, decodeFrames, keyOf, next, pair } from '../../test/utils.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

describe('approveRequest', () => {
  test('default: wire shape', async () => {
    const recorder = createRecorder()
    const { dapp, wallet, uri } = await pair(bridge.url, { WebSocket: recorder.WebSocket })
    const pending = dapp.request({ method: 'custom', params: [1] })
    const request = await next(wallet, 'call_request')
    expect(request).toEqual({ id: expect.any(Number), jsonrpc: '2.0', method: 'custom', params: [1] })
    const start = recorder.sent.length
    await wallet.approveRequest({ id: request.id, result: '0xdeadbeef' })
    await waitFor(() => recorder.sent.length > start)
    const [response] = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
    expect(JSON.stringify(response?.payload)).toBe(
      JSON.stringify({ id: request.id, jsonrpc: '2.0', result: '0xdeadbeef' }),
    )
    expect(response).toMatchObject({ topic: dapp.clientId, silent: true })
    await expect(pending).resolves.toBe('0xdeadbeef')
    dapp.close()
    wallet.close()
  })

  test('error: v1 texts', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    await expect(wallet.approveRequest({ id: 1 } as never)).rejects.toThrowError(
      new InvalidJsonRpcError('JSON-RPC success response must include "result" field'),
    )
    await expect(wallet.approveRequest({ result: 1 } as never)).rejects.toThrowError(
      new InvalidJsonRpcError('JSON RPC request must have valid "id" value'),
    )
    dapp.close()
    wallet.close()
  })

  test('error: no session', async () => {
    const wallet = createWallet({ bridge: bridge.url, storage: false })
    await expect(wallet.approveRequest({ id: 1, result: 1 })).rejects.toThrowError(
      new SessionError('Session currently disconnected'),
    )
  })
})

describe('rejectRequest', () => {
  test('default: keeps the caller code (v1 sent -32000)', async () => {
    const recorder = createRecorder()
    const { dapp, wallet, uri } = await pair(bridge.url, { WebSocket: recorder.WebSocket })
    const pending = dapp
      .request({ method: 'personal_sign', params: ['0x00', account] })
      .catch((e: unknown) => e)
    const request = await next(wallet, 'call_request')
    const start = recorder.sent.length
    await wallet.rejectRequest({
      id: request.id,
      error: { code: 4001, message: 'User rejected the request.' },
    })
    await waitFor(() => recorder.sent.length > start)
    const [response] = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
    expect(JSON.stringify(response?.payload)).toBe(
      JSON.stringify({
        id: request.id,
        jsonrpc: '2.0',
        error: { code: 4001, message: 'User rejected the request.' },
      }),
    )
    expect(await pending).toMatchObject({ code: 4001, message: 'User rejected the request.' })
    dapp.close()
    wallet.close()
  })

  test('args: no code, no message (v1 defaults)', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    const first = dapp.request({ method: 'a' }).catch((e: unknown) => e)
    const a = await next(wallet, 'call_request')
    await wallet.rejectRequest({ id: a.id, error: {} })
    expect(await first).toMatchObject({ code: -32000, message: 'Failed or Rejected Request' })
    const second = dapp.request({ method: 'b' }).catch((e: unknown) => e)
    const b = await next(wallet, 'call_request')
    await wallet.rejectRequest({ id: b.id, error: { message: 'Method not found' } })
    expect(await second).toMatchObject({ code: -32601, message: 'Method not found' })
    dapp.close()
    wallet.close()
  })

  test('error: v1 texts', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    await expect(wallet.rejectRequest({ id: 1 } as never)).rejects.toThrowError(
      new InvalidJsonRpcError('JSON-RPC error response must include "error" field'),
    )
    await expect(wallet.rejectRequest({ error: { message: 'x' } } as never)).rejects.toThrowError(
      new InvalidJsonRpcError('JSON RPC request must have valid "id" value'),
    )
    dapp.close()
    wallet.close()
  })
})
