import { describe, expect, test } from 'vitest'
import { ModalEnvironmentError } from './errors.js'
import { open } from './open.js'

describe('open (Node)', () => {
  test('error: no document', () => {
    expect(() => open('wc:a@1?bridge=x&key=y')).toThrowError(ModalEnvironmentError)
  })
})
