import { describe, expect, test } from 'vitest'
import { createRateLimiter } from './rateLimiter.js'

// A clock the test moves by hand, in ms.
function clock() {
  let time = 0
  return { now: () => time, advance: (ms: number) => (time += ms) }
}

describe('take', () => {
  test('behavior: a key spends its burst, then one token per 1/perSecond s; keys are apart', () => {
    const { now, advance } = clock()
    const limiter = createRateLimiter({ perSecond: 10, burst: 2, now })
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([true, true, false])
    expect(limiter.take('b')).toBe(true)
    advance(100)
    expect([limiter.take('a'), limiter.take('a')]).toEqual([true, false])
  })
})

describe('spend', () => {
  test('behavior: what was received is spent into debt; the answer is the ms until the key is out of it', () => {
    const { now, advance } = clock()
    // 1 000 bytes per second, 500 at once.
    const limiter = createRateLimiter({ perSecond: 1_000, burst: 500, now })
    expect(limiter.spend('a', 400)).toBe(0)
    expect(limiter.spend('a', 300)).toBe(200)
    expect(limiter.spend('b', 500)).toBe(0)
    advance(200)
    expect(limiter.spend('a', 0)).toBe(0)
    // A debt of a whole second's worth waits a second; take refuses meanwhile.
    expect(limiter.spend('a', 1_000)).toBe(1_000)
    expect(limiter.take('a')).toBe(false)
  })

  test('default: perSecond 0 switches it off', () => {
    const limiter = createRateLimiter({ perSecond: 0, burst: 1 })
    expect(limiter.spend('a', 1e9)).toBe(0)
  })
})
