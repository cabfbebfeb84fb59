/** What the app reads of an error: a code (EIP-1193 number or Pairlink `ERR_*` string) and what it wraps. */
export type ErrorLike = {
  code?: unknown
  details?: unknown
  message?: unknown
  shortMessage?: unknown
  cause?: unknown
}

/**
 * `BaseError.walk(fn)` (Pairlink's and viem's) for any thrown value: the first error of the `cause` chain, the
 * value itself included, for which `fn` is true, or `null`. Errors of other libraries and plain `Error`s have no
 * `walk`, and viem wraps the provider's error one or two levels deep, so the app walks them all the same way.
 *
 * @example
 * walkError(error, (e) => e.code === 4001) // the wallet's refusal, however deep viem wrapped it
 */
export function walkError(error: unknown, fn: (error: ErrorLike) => boolean): ErrorLike | null {
  const seen = new Set<unknown>()
  let current: unknown = error
  // A cause cycle must not hang the page.
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    if (fn(current as ErrorLike)) return current as ErrorLike
    current = (current as ErrorLike).cause
  }
  return null
}
