import { Writable } from 'node:stream'
import { waitFor } from '@pairlink/test-kit'
import { type Logger, pino } from 'pino'

/** One line pino wrote, parsed. */
export type LogLine = Record<string, unknown> & { level: number; msg: string }

/**
 * A pino logger at `info` whose lines are kept in memory as parsed JSON, as a log shipper would read stdout.
 * @example
 * const log = captureLog()
 * createAppServer({ ..., logger: log.logger })
 * const line = await log.next((line) => line.requestId === id)
 */
export function captureLog(): {
  logger: Logger
  lines: LogLine[]
  /** Waits for a line matching `match` (already written or still to come). */
  next(match: (line: LogLine) => boolean): Promise<LogLine>
} {
  const lines: LogLine[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text) lines.push(JSON.parse(text) as LogLine)
      done()
    },
  })
  return {
    logger: pino({ level: 'info' }, stream),
    lines,
    next: (match) => waitFor(() => lines.find(match), { message: 'log line' }),
  }
}
