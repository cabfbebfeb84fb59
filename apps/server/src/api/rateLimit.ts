import type { MiddlewareHandler } from 'hono'
import { ApiError, type AppEnv } from './http.js'

/** Parameters of {@link createRateLimit}. */
export type CreateRateLimitParameters = {
  /** Requests allowed in a burst. @default 20 */
  burst?: number | undefined
  /** Requests per second refilled. @default 1 */
  perSecond?: number | undefined
  /** Keys tracked at most; the oldest are forgotten beyond it, so a flood of addresses cannot grow memory. @default 10000 */
  maxKeys?: number | undefined
  now?: (() => number) | undefined
}

/** A token bucket per key (the caller's address or account). `take(key)` returns 0 when allowed, else seconds to wait. */
export function createRateLimit(parameters: CreateRateLimitParameters = {}) {
  const { burst = 20, perSecond = 1, maxKeys = 10_000, now = Date.now } = parameters
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take(key: string): number {
      const t = now()
      const bucket = buckets.get(key) ?? { tokens: burst, at: t }
      bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond)
      bucket.at = t
      buckets.delete(key)
      buckets.set(key, bucket)
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string)
      if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / perSecond)
      bucket.tokens -= 1
      return 0
    },
  }
}

/** A limit's budget: a burst, then so many a second. */
export type Budget = { burst: number; perSecond: number }

/** hono middleware: one token of `limit` per request, keyed by `key(c)`; 429 with `Retry-After` once spent. */
export function rateLimit(
  budget: Budget,
  key: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string,
  message: string,
): MiddlewareHandler<AppEnv> {
  const limit = createRateLimit(budget)
  return async (c, next) => {
    spend(limit, key(c), message)
    return next()
  }
}

/** Takes one token of `limit` for `key`, or throws a 429 {@link ApiError} with `Retry-After`. */
export function spend(limit: ReturnType<typeof createRateLimit>, key: string, message: string) {
  const wait = limit.take(key)
  if (wait > 0) throw new ApiError(429, message, { 'retry-after': String(wait) })
}
