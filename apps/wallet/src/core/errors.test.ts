import { InvalidUriError, RpcError, V1_ERRORS } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { CliArgsError } from '../cli/parseCliArgs.js'
import { findError, findRpcError, IncompleteUriError, InvalidPrivateKeyError } from './errors.js'

describe('findError', () => {
  test('default: the first Pairlink error (an ERR_* code) of the chain', () => {
    const invalid = new InvalidUriError(V1_ERRORS.INVALID_URI)
    expect(findError(invalid)).toBe(invalid)
    expect(findError(new Error('plain'))).toBeUndefined()
    expect(findError('text')).toBeUndefined()
  })

  test('args: codes, the first error of the chain that carries one', () => {
    const incomplete = new IncompleteUriError()
    expect(findError(incomplete, IncompleteUriError.code)).toBe(incomplete)
    expect(findError(incomplete, CliArgsError.code, InvalidUriError.code)).toBeUndefined()
    expect(findError(new InvalidPrivateKeyError(), InvalidPrivateKeyError.code)?.message).toMatch(
      /^Invalid private/,
    )
  })

  test('behavior: a wrapped cause is found by its code (instanceof on the outer error missed it)', () => {
    const incomplete = new IncompleteUriError()
    const wrapped = new Error('pairing failed', { cause: incomplete })
    expect(wrapped instanceof IncompleteUriError).toBe(false)
    expect(findError(wrapped, IncompleteUriError.code)).toBe(incomplete)
  })

  test('behavior: an error of another copy of the package, same code, is recognised', () => {
    // What a second bundle's class looks like from here: not our class, but the same code.
    const foreign = Object.assign(new Error(V1_ERRORS.INVALID_URI), { code: InvalidUriError.code })
    expect(foreign instanceof InvalidUriError).toBe(false)
    expect(findError(foreign, InvalidUriError.code)?.message).toBe('URI format is invalid')
  })
})

describe('findRpcError', () => {
  test('default: the first numeric code of the chain', () => {
    const unauthorized = new RpcError('Unknown address', { code: 4100 })
    expect(findRpcError(unauthorized)).toBe(unauthorized)
    expect(findRpcError(new Error('outer', { cause: unauthorized }))).toBe(unauthorized)
  })

  test('behavior: string codes and plain errors are not JSON-RPC answers', () => {
    expect(findRpcError(new IncompleteUriError())).toBeUndefined()
    expect(findRpcError(new Error('plain'))).toBeUndefined()
  })
})
