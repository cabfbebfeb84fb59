import { RequestTimeoutError } from '@pairlink/client'
import { ModalClosedError, RpcError, SessionError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'
import { DisconnectedError, HttpRequestError, UserRejectedRequestError } from '@pairlink/provider'
import { InsufficientFundsError, UserRejectedRequestError as ViemUserRejected } from 'viem'
import { describe, expect, test } from 'vitest'
import { describeDisconnect, describeError } from './describeError.js'

describe('describeError', () => {
  test('default: an unknown error keeps its first line behind a plain prefix', () => {
    expect(describeError(new Error('boom\nstack'))).toBe('Something went wrong: boom')
    expect(describeError('text')).toBe('Something went wrong: text')
  })

  test('behavior: the person closing the QR modal (client and provider texts)', () => {
    const closed = 'You closed the QR window before a wallet connected. Press Connect wallet to try again.'
    expect(describeError(new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED), 'connect')).toBe(closed)
    expect(describeError(new UserRejectedRequestError(V1_ERRORS.PROVIDER_USER_CLOSED_MODAL), 'connect')).toBe(
      closed,
    )
  })

  test('behavior: the wallet rejecting the session', () => {
    expect(describeError(new SessionRejectedError('Session Rejected'), 'connect')).toBe(
      'The wallet rejected the connection.',
    )
    expect(describeError(new UserRejectedRequestError('Session Rejected'), 'connect')).toBe(
      'The wallet rejected the connection.',
    )
  })

  test('behavior: the wallet rejecting a request, also wrapped by viem', () => {
    const rejected = new UserRejectedRequestError('User rejected')
    expect(describeError(rejected)).toBe('The wallet rejected the request.')
    expect(describeError(new ViemUserRejected(rejected))).toBe('The wallet rejected the request.')
    expect(describeError(new RpcError('no', { code: 4001 }), 'payment')).toBe(
      'The wallet rejected the request.',
    )
  })

  test('args: switchChain — a refusal or an unknown chain reads as the wallet staying put', () => {
    expect(describeError(new RpcError('no', { code: 4001 }), 'switchChain')).toMatch(/refused to switch/)
    expect(describeError(new RpcError('unknown chain', { code: 4902 }), 'switchChain')).toMatch(
      /does not know this chain/,
    )
  })

  test('behavior: no session', () => {
    const text = 'The wallet is disconnected. Connect it again to continue.'
    expect(describeError(new DisconnectedError(V1_ERRORS.SESSION_DISCONNECTED))).toBe(text)
    expect(describeError(new SessionError(V1_ERRORS.SESSION_DISCONNECTED))).toBe(text)
  })

  test('behavior: time-out, RPC node, funds', () => {
    expect(describeError(new RequestTimeoutError('personal_sign', 1000))).toMatch(/did not answer in time/)
    expect(
      describeError(
        new HttpRequestError('HTTP request eth_blockNumber failed', { details: 'fetch failed' }),
        'read',
      ),
    ).toBe('The RPC node is unreachable. Retrying…')
    expect(describeError(new InsufficientFundsError(), 'payment')).toMatch(/Not enough ETH/)
  })

  test('behavior: a cause cycle does not hang', () => {
    const error = new Error('loop') as Error & { cause: unknown }
    error.cause = error
    expect(describeError(error)).toBe('Something went wrong: loop')
  })
})

describe('describeDisconnect', () => {
  test('args: by the person or by the wallet', () => {
    expect(describeDisconnect(true)).toBe('You disconnected the wallet.')
    expect(describeDisconnect(false)).toMatch(/^The wallet disconnected\./)
  })
})
