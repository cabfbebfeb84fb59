/** Parameters of {@link createRateLimiter}. */
export type RateLimiterParameters = {
  /** Tokens added per second; `0` disables the limit. */
  perSecond: number
  /** Bucket size: what a key may spend at once. */
  burst: number
  /** Clock in milliseconds, for tests. @default performance.now */
  now?: (() => number) | undefined
}

/** Return type of {@link createRateLimiter}. */
export type RateLimiter = {
  /** Spends one token of `key`'s bucket; `false` when it is empty. */
  take(key: string): boolean
  /**
   * Spends `amount` tokens of `key`'s bucket, into debt when it holds fewer: what was received is received. Answers
   * the milliseconds until the bucket is out of debt (0 when it is not in debt): how long to stop reading from `key`.
   */
  spend(key: string, amount: number): number
}

// Full buckets are forgotten once there are this many keys, so a stream of one-off addresses cannot grow the map.
const SWEEP_ABOVE = 4_096
// Buckets looked at per new key beyond SWEEP_ABOVE: the map is swept a little at a time, never in one long loop, and
// faster than one-off keys can grow it.
const SWEEP_STEP = 8

/**
 * A token bucket per key (per address). Buckets that have refilled are forgotten, which loses nothing: a new bucket
 * starts full.
 *
 * @example
 * const limiter = createRateLimiter({ perSecond: 1, burst: 60 })
 * if (!limiter.take(address)) return tooManyRequests()
 */
export function createRateLimiter(parameters: RateLimiterParameters): RateLimiter {
  const { burst } = parameters
  const rate = parameters.perSecond / 1000
  const now = parameters.now ?? (() => performance.now())
  const buckets = new Map<string, { tokens: number; at: number }>()
  let cursor: Iterator<[string, { tokens: number; at: number }]> | undefined

  const sweep = (time: number) => {
    cursor ??= buckets.entries()
    for (let i = 0; i < SWEEP_STEP; i++) {
      const next = cursor.next()
      if (next.done) {
        cursor = undefined
        return
      }
      const [key, bucket] = next.value
      if (bucket.tokens + (time - bucket.at) * rate >= burst) buckets.delete(key)
    }
  }

  // `key`'s bucket, refilled up to now.
  const bucketOf = (key: string, time: number) => {
    let bucket = buckets.get(key)
    if (!bucket) {
      if (buckets.size >= SWEEP_ABOVE) sweep(time)
      bucket = { tokens: burst, at: time }
      buckets.set(key, bucket)
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.at) * rate)
      bucket.at = time
    }
    return bucket
  }

  return {
    take(key) {
      if (rate === 0) return true
      const bucket = bucketOf(key, now())
      if (bucket.tokens < 1) return false
      bucket.tokens--
      return true
    },
    spend(key, amount) {
      if (rate === 0) return 0
      const bucket = bucketOf(key, now())
      bucket.tokens -= amount
      return bucket.tokens < 0 ? Math.ceil(-bucket.tokens / rate) : 0
    },
  }
}
