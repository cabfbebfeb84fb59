import { BaseError } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { ModalEnvironmentError, QrCodeError, RegistryError } from './errors.js'

describe('errors', () => {
  test('default', () => {
    const error = new RegistryError('Wallet registry could not be fetched')
    expect(error).toBeInstanceOf(BaseError)
    expect([error.name, error.code]).toEqual(['RegistryError', 'ERR_MODAL_REGISTRY'])
  })

  test('behavior: codes', () => {
    expect([new ModalEnvironmentError().code, new QrCodeError('x').code]).toEqual([
      'ERR_MODAL_NO_DOM',
      'ERR_MODAL_QR_OVERFLOW',
    ])
    expect(new ModalEnvironmentError().message).toBe('The QR-code modal needs a browser document')
  })
})
