import { ModalClosedError, RpcError, V1_ERRORS } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import {
  BlockNotFoundError,
  ChainDisconnectedError,
  DisconnectedError,
  HttpRequestError,
  InvalidProviderParametersError,
  UnauthorizedError,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from './errors.js'

describe('static code', () => {
  test.each([
    [UserRejectedRequestError, 4001, new UserRejectedRequestError('no')],
    [UnauthorizedError, 4100, new UnauthorizedError('no')],
    [UnsupportedMethodError, 4200, new UnsupportedMethodError('no')],
    [DisconnectedError, 4900, new DisconnectedError('no')],
    [ChainDisconnectedError, 4901, new ChainDisconnectedError('no')],
    [HttpRequestError, -32603, new HttpRequestError('no', { details: 'network' })],
    [BlockNotFoundError, -32001, new BlockNotFoundError('no', 'empty')],
  ] as const)('%o: %i, on the class and on each instance', (Class, code, instance) => {
    expect(Class.code).toBe(code)
    expect(instance.code).toBe(code)
    expect(instance).toBeInstanceOf(RpcError)
    expect(instance.toJSON()).toEqual({ code, message: 'no' })
  })

  test('InvalidProviderParametersError: a string code', () => {
    expect(InvalidProviderParametersError.code).toBe('ERR_PROVIDER_PARAMETERS')
    expect(new InvalidProviderParametersError('x').code).toBe('ERR_PROVIDER_PARAMETERS')
  })
})

describe('parameters', () => {
  test('args: data and cause, the cause reachable by walk()', () => {
    const closed = new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED)
    const error = new UserRejectedRequestError(V1_ERRORS.PROVIDER_USER_CLOSED_MODAL, {
      data: 1,
      cause: closed,
    })
    expect(error).toMatchObject({ code: 4001, data: 1, cause: closed, message: 'User closed modal' })
    expect(error.walk()).toBe(closed)
    expect(error.walk((e) => (e as { code?: unknown }).code === ModalClosedError.code)).toBe(closed)
    expect(new DisconnectedError('gone', { data: { reason: 'r' } }).toJSON()).toEqual({
      code: 4900,
      message: 'gone',
      data: { reason: 'r' },
    })
  })
})
