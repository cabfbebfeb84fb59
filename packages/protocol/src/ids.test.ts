import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import { createTopic, payloadId } from './ids.js'

describe('createTopic', () => {
  test('default: a lowercase UUID v4', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    for (let i = 0; i < 200; i++) expect(createTopic()).toMatch(uuid)
  })

  test('behavior: unique', () => {
    expect(new Set(Array.from({ length: 1000 }, createTopic)).size).toBe(1000)
  })
})

describe('payloadId', () => {
  test('default: 16 digits, the v1 formula', () => {
    const before = Date.now() * 1000
    const id = payloadId()
    expect(String(id)).toHaveLength(String(vectors.payloadId.example).length)
    expect(id).toBeGreaterThanOrEqual(before)
    expect(Number.isSafeInteger(id)).toBe(true)
  })

  test('behavior: strictly increasing, so ids never collide within a process', () => {
    const ids = Array.from({ length: 5000 }, payloadId)
    for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeGreaterThan(ids[i - 1]!)
  })
})
