import { redactUrls } from './redactUrls.js'

/**
 * One dependency's check: resolves when it can serve, throws (with a short reason) when not. It is given up after
 * the readiness timeout, and `signal` aborts then, so a check that can cancel its work should pass it on.
 */
export type ReadyCheck = (signal: AbortSignal) => Promise<void>

/** One check's outcome in `/ready`'s answer. `error` is a short reason without URLs or credentials. */
export type ReadyCheckResult = { ok: boolean; ms: number; error?: string }

/** `/ready`'s answer: `ready` (200) when every check passed, `unready` (503) otherwise. */
export type ReadyReport = {
  status: 'ready' | 'unready'
  checks: Record<string, ReadyCheckResult>
}

/** Parameters of {@link createReadiness}. */
export type CreateReadinessParameters = {
  /** The dependencies by the name `/ready` shows (`database`, `redis`, `chain`). */
  checks: Record<string, ReadyCheck>
  /** Longest a check may take before it counts as failed. @default 2000 */
  timeoutMs?: number | undefined
  /**
   * How long one round of checks answers every caller: probes, scrapes and a flood of `/ready` requests cost the
   * dependencies at most one round per this interval. @default 1000
   */
  reuseMs?: number | undefined
  /** Called when a dependency turns ready or unready (not on the first round when it is ready). */
  onChange?: ((name: string, result: ReadyCheckResult) => void) | undefined
}

/** Return type of {@link createReadiness}. */
export type Readiness = {
  /** Runs the checks (or joins the round under way, or reuses one younger than `reuseMs`). */
  check(): Promise<ReadyReport>
}

/**
 * Checks the server's dependencies for `/ready` and the readiness gauge: all at once, each bounded by `timeoutMs`,
 * so an answer comes within that time whatever hangs.
 * @example
 * const readiness = createReadiness({ checks: { database: (signal) => db.query('SELECT 1').then(() => {}) } })
 * const { status } = await readiness.check()
 */
export function createReadiness(parameters: CreateReadinessParameters): Readiness {
  const { checks, onChange } = parameters
  const timeoutMs = parameters.timeoutMs ?? 2_000
  const reuseMs = parameters.reuseMs ?? 1_000
  let running: Promise<ReadyReport> | undefined
  let last: { report: ReadyReport; at: number } | undefined
  const previous = new Map<string, boolean>()

  const runOne = async (check: ReadyCheck): Promise<ReadyCheckResult> => {
    const started = performance.now()
    const controller = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort()
        reject(new ReadyTimeoutError(timeoutMs))
      }, timeoutMs)
    })
    try {
      await Promise.race([check(controller.signal), timedOut])
      return { ok: true, ms: elapsed(started) }
    } catch (error) {
      return { ok: false, ms: elapsed(started), error: reasonOf(error) }
    } finally {
      clearTimeout(timer)
    }
  }

  const round = async (): Promise<ReadyReport> => {
    const names = Object.keys(checks)
    const results = await Promise.all(names.map((name) => runOne(checks[name]!)))
    const report: ReadyReport = { status: 'ready', checks: {} }
    names.forEach((name, n) => {
      const result = results[n]!
      report.checks[name] = result
      if (!result.ok) report.status = 'unready'
      const was = previous.get(name)
      previous.set(name, result.ok)
      if (was !== result.ok && (was !== undefined || !result.ok)) onChange?.(name, result)
    })
    last = { report, at: performance.now() }
    return report
  }

  return {
    check() {
      if (running) return running
      if (last && performance.now() - last.at < reuseMs) return Promise.resolve(last.report)
      running = round().finally(() => {
        running = undefined
      })
      return running
    },
  }
}

/** A check that took longer than the readiness timeout. */
class ReadyTimeoutError extends Error {
  override name = 'ReadyTimeoutError'
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`)
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}

/**
 * A short reason for `/ready`, which anyone reaching the port can read: a system error's code (`ECONNREFUSED`)
 * rather than its message (which names the address), otherwise the message with URLs redacted, cut at 200 characters.
 */
function reasonOf(error: unknown): string {
  if (error instanceof ReadyTimeoutError) return error.message
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 3; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
  }
  const message = error instanceof Error ? error.message : String(error)
  return redactUrls(message).slice(0, 200) || 'failed'
}
