import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import {
  BaseError,
  DecryptionError,
  formatRpcError,
  InvalidUriError,
  PROVIDER_ERROR_CODES,
  RpcError,
  V1_ERRORS,
  walkError,
} from './errors.js'

describe('V1_ERRORS', () => {
  // Each text pinned literally: apps built on the published v1 packages compare against these bytes.
  test.each([
    ['SESSION_CONNECTED', 'Session currently connected'],
    ['SESSION_DISCONNECTED', 'Session currently disconnected'],
    ['SESSION_REJECTED', 'Session Rejected'],
    ['SESSION_DISCONNECTED_LOCAL', 'Session Disconnected'],
    ['SESSION_DISCONNECTED_REMOTE', 'Session disconnected'],
    ['SESSION_UPDATE_REJECTED', 'Session update rejected'],
    ['SESSION_REQUEST_REJECTED', 'Session request rejected'],
    ['MISSING_JSON_RPC', 'Missing JSON RPC response'],
    ['MISSING_RESULT', 'JSON-RPC success response must include "result" field'],
    ['MISSING_ERROR', 'JSON-RPC error response must include "error" field'],
    ['MISSING_METHOD', 'JSON RPC request must have valid "method" value'],
    ['MISSING_ID', 'JSON RPC request must have valid "id" value'],
    ['MISSING_REQUIRED', 'Missing one of the required parameters: bridge / uri / session'],
    ['INVALID_RESPONSE', 'JSON RPC response format is invalid'],
    ['INVALID_URI', 'URI format is invalid'],
    ['INVALID_HANDSHAKE_TOPIC', 'Invalid or missing handshakeTopic parameter value'],
    ['INVALID_BRIDGE', 'Invalid or missing bridge url parameter value'],
    ['INVALID_KEY', 'Invalid or missing key parameter value'],
    ['QRCODE_MODAL_NOT_PROVIDED', 'QRCode Modal not provided'],
    ['QRCODE_MODAL_USER_CLOSED', 'User close QRCode Modal'],
    ['WEBSOCKET_CONNECTION_FAILED', 'Websocket connection failed'],
    ['DEFAULT_RPC_ERROR', 'Failed or Rejected Request'],
    ['INVALID_TRANSACTION_FROM', "Transaction object must include a valid 'from' value."],
    ['MISSING_WEBSOCKET_URL', 'Missing or invalid WebSocket url'],
    ['MISSING_TOPIC', 'Missing or invalid topic field'],
    ['FAILED_TO_CREATE_SOCKET', 'Failed to create socket'],
    ['SUBSCRIPTIONS_NOT_SUPPORTED', 'Subscriptions are not supported by this HTTP endpoint'],
    ['PROVIDER_USER_CLOSED_MODAL', 'User closed modal'],
    ['PROVIDER_MISSING_RPC', 'Missing one of the required parameters: rpc or infuraId'],
    ['PROVIDER_HTTP_UNAVAILABLE', 'HTTP Connection not available'],
    ['PROVIDER_FAILED_TO_GET_ACCOUNTS', 'Failed to get accounts'],
    ['PROVIDER_CONNECTION_CLOSED', 'Connection closed'],
    ['PROVIDER_CONNECTION_DISCONNECTED', 'Connection disconnected'],
    ['COULD_NOT_FIND_BLOCK', 'Could not find block'],
  ] as const)('%s', (name, text) => {
    expect(V1_ERRORS[name]).toBe(text)
  })

  test('behavior: every text is pinned above', () => {
    expect(Object.keys(V1_ERRORS)).toHaveLength(34)
  })
})

describe('codes', () => {
  test('EIP-1193 (§5.3)', () => {
    expect(PROVIDER_ERROR_CODES).toEqual({
      USER_REJECTED: 4001,
      UNAUTHORIZED: 4100,
      UNSUPPORTED_METHOD: 4200,
      DISCONNECTED: 4900,
      CHAIN_DISCONNECTED: 4901,
    })
  })
})

describe('BaseError', () => {
  test('default: the message is exactly the text given, with code, details and cause', () => {
    const cause = new Error('root')
    const error = new BaseError(V1_ERRORS.SESSION_CONNECTED, { code: 'ERR_X', details: 'more', cause })
    expect(error.message).toBe('Session currently connected')
    expect(error).toMatchObject({ code: 'ERR_X', details: 'more', cause, name: 'PairlinkError' })
    expect(error).toBeInstanceOf(Error)
  })

  test('behavior: subclasses carry their static code and name', () => {
    const error = new InvalidUriError(V1_ERRORS.INVALID_URI)
    expect(error).toBeInstanceOf(BaseError)
    expect(error).toMatchObject({ code: 'ERR_URI_INVALID', name: 'InvalidUriError' })
    expect(new DecryptionError()).toMatchObject({ code: 'ERR_ENVELOPE_INVALID', name: 'DecryptionError' })
  })

  test('RpcError: numeric code and data, serialisable as a JSON-RPC error', () => {
    const error = new RpcError('User rejected the request.', { code: 4001, data: { reason: 'x' } })
    expect(error.code).toBe(4001)
    expect(error.toJSON()).toEqual({
      code: 4001,
      message: 'User rejected the request.',
      data: { reason: 'x' },
    })
    expect(new RpcError('m', { code: -32601 }).toJSON()).toEqual({ code: -32601, message: 'm' })
  })
})

describe('BaseError.walk', () => {
  const root = new Error('root')
  const middle = new RpcError('rejected', { code: 4001, cause: root })
  const top = new BaseError('wrapped', { code: 'ERR_X', cause: middle })

  test('default: without fn, the deepest cause', () => {
    expect(top.walk()).toBe(root)
    expect(middle.walk()).toBe(root)
  })

  test('default: without fn and without a cause, the error itself', () => {
    const alone = new BaseError('alone')
    expect(alone.walk()).toBe(alone)
  })

  test('args: fn, the first match from the top, the error itself included', () => {
    expect(top.walk((e) => (e as { code?: unknown }).code === 4001)).toBe(middle)
    expect(top.walk((e) => (e as { code?: unknown }).code === 'ERR_X')).toBe(top)
    expect(top.walk((e) => e instanceof Error)).toBe(top)
    expect(top.walk((e) => (e as Error).message === 'root')).toBe(root)
  })

  test('args: fn, null when nothing matches', () => {
    expect(top.walk((e) => (e as { code?: unknown }).code === 4900)).toBeNull()
  })

  test('walkError: the same walk for any thrown value', () => {
    const plain = new Error('outer', { cause: middle })
    expect(walkError(plain)).toBe(root)
    expect(walkError(plain, (e) => (e as { code?: unknown }).code === 4001)).toBe(middle)
    expect(walkError('text')).toBe('text')
    expect(walkError('text', () => false)).toBeNull()
  })

  test('behavior: a cause cycle ends the walk', () => {
    const a = new BaseError('a', { code: 'ERR_A' })
    const b = new BaseError('b', { code: 'ERR_B', cause: a })
    ;(a as { cause?: unknown }).cause = b
    expect(a.walk((e) => (e as { code?: unknown }).code === 'ERR_C')).toBeNull()
    expect(a.walk()).toBe(b)
  })
})

describe('formatRpcError', () => {
  const [byMessage, withCode, empty, capitalised] = vectors.formatRpcError_examples
  test.each([byMessage!, empty!, capitalised!])('vector: $input', ({ input, output }) => {
    expect(formatRpcError(input)).toEqual(output)
  })

  test('behavior: a supplied code is kept (v1 replaced it with -32000)', () => {
    expect(withCode!.output.code).toBe(-32000)
    expect(formatRpcError(withCode!.input)).toEqual({ code: 4001, message: 'x' })
  })

  test.each([
    ['Parse error', -32700],
    ['Invalid request', -32600],
    ['Invalid params', -32602],
    ['Internal error', -32603],
    ['anything else', -32000],
  ])('behavior: %s → %i', (message, code) => {
    expect(formatRpcError({ message })).toEqual({ code, message })
  })
})
