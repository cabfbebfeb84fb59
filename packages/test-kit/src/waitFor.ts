/** Parameters of {@link waitFor}. */
export type WaitForParameters = {
  /** Give up after this long. @default 5000 */
  timeout?: number | undefined
  /** Poll this often. @default 10 */
  interval?: number | undefined
  /** Said in the error when the time is up. @default 'condition' */
  message?: string | undefined
}

/**
 * Polls `check` until it returns a value other than `false`, `undefined` or `null` (a throw counts as not yet),
 * and resolves with that value; rejects after `timeout` with the last error as its cause. A test waits on a
 * condition this way instead of sleeping for a guessed time.
 *
 * @example
 * await waitFor(() => bridge.stats.subscribers === 2, { message: 'both peers subscribed' })
 */
export async function waitFor<result>(
  check: () => result | Promise<result>,
  parameters: WaitForParameters = {},
): Promise<Exclude<result, false | undefined | null>> {
  const { timeout = 5000, interval = 10, message = 'condition' } = parameters
  const deadline = Date.now() + timeout
  let cause: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== false && value !== undefined && value !== null)
        return value as Exclude<result, false | undefined | null>
    } catch (error) {
      cause = error
    }
    if (Date.now() >= deadline)
      throw new Error(`waitFor: ${message} did not hold within ${timeout} ms`, { cause })
    await new Promise((resolve) => setTimeout(resolve, interval))
  }
}
