import { describe, expect, test } from 'vitest'
import { createReadiness, type ReadyCheckResult } from './ready.js'

const never = () => new Promise<void>(() => {})

describe('createReadiness', () => {
  test('default: ready when every check resolves, with each one named and timed', async () => {
    const readiness = createReadiness({ checks: { database: async () => {}, chain: async () => {} } })
    const report = await readiness.check()
    expect(report.status).toBe('ready')
    expect(Object.keys(report.checks)).toEqual(['database', 'chain'])
    expect(report.checks.database).toEqual({ ok: true, ms: expect.any(Number) })
  })

  test('error: a check that hangs fails at the timeout, and its signal is aborted', async () => {
    let aborted: AbortSignal | undefined
    const readiness = createReadiness({
      timeoutMs: 100,
      checks: {
        database: async () => {},
        chain: (signal) => {
          aborted = signal
          return never()
        },
      },
    })
    const started = performance.now()
    const report = await readiness.check()
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(report.status).toBe('unready')
    expect(report.checks.chain).toEqual({
      ok: false,
      ms: expect.any(Number),
      error: 'no answer within 100 ms',
    })
    expect(report.checks.database?.ok).toBe(true)
    expect(aborted?.aborted).toBe(true)
  })

  test('error: the reason is a system error code, or the message with URLs redacted', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })
    const readiness = createReadiness({
      checks: {
        database: async () => {
          throw refused
        },
        chain: async () => {
          throw new Error('fetch failed', { cause: refused })
        },
        redis: async () => {
          throw new Error('bad answer from https://user:pass@node.example/v3/KEY?x=1')
        },
      },
    })
    const { checks } = await readiness.check()
    expect(checks.database?.error).toBe('ECONNREFUSED')
    expect(checks.chain?.error).toBe('ECONNREFUSED')
    expect(checks.redis?.error).toBe('bad answer from https://node.example/…')
  })

  test('behavior: callers within reuseMs share one round; concurrent callers join the round under way', async () => {
    let rounds = 0
    const readiness = createReadiness({
      reuseMs: 60_000,
      checks: {
        database: async () => {
          rounds++
        },
      },
    })
    await Promise.all([readiness.check(), readiness.check(), readiness.check()])
    await readiness.check()
    expect(rounds).toBe(1)
  })

  test('behavior: onChange tells each turn, and a first round that is ready stays quiet', async () => {
    let up = true
    const changes: [string, ReadyCheckResult][] = []
    const readiness = createReadiness({
      reuseMs: 0,
      checks: {
        database: async () => {
          if (!up) throw new Error('down')
        },
      },
      onChange: (name, result) => changes.push([name, result]),
    })
    await readiness.check()
    expect(changes).toEqual([])
    up = false
    await readiness.check()
    await readiness.check()
    up = true
    await readiness.check()
    expect(changes.map(([name, { ok, error }]) => [name, ok, error])).toEqual([
      ['database', false, 'down'],
      ['database', true, undefined],
    ])
  })
})
