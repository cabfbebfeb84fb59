import { describe, expect, test } from 'vitest'
import { verifySignature } from './verifySignature.js'

const answers = (value: boolean | Error) => async () => {
  if (value instanceof Error) throw value
  return value
}

describe('verifySignature', () => {
  test('default: a key’s signature verifies without asking the chain', async () => {
    let asked = false
    const chain = async () => {
      asked = true
      return false
    }
    expect(await verifySignature(answers(true), chain)).toBe(true)
    expect(asked).toBe(false)
  })

  test('behavior: not the key’s (or of no key’s shape): the chain says (a smart account)', async () => {
    expect(await verifySignature(answers(false), answers(true))).toBe(true)
    expect(await verifySignature(answers(new Error('Invalid signature length')), answers(true))).toBe(true)
    expect(await verifySignature(answers(false), answers(false))).toBe(false)
  })

  test('error: no chain, or the chain unreachable: not verified', async () => {
    expect(await verifySignature(answers(false), undefined)).toBe(false)
    expect(await verifySignature(answers(false), answers(new Error('fetch failed')))).toBe(false)
  })
})
