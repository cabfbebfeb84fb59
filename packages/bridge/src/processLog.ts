import pino from 'pino'

/**
 * Where a server process (`pairlink-bridge`, the product server) writes its pino log lines: stdout, synchronously, and
 * a reader of stdout or stderr that went away only silences them. pino's asynchronous destination flushes on exit and,
 * on EPIPE, retries for ever (sonic-boom's flushSync), which held SIGTERM up once a CI job's log reader had died.
 *
 * @example
 * const logger = pino({ level: 'info' }, processLogDestination())
 */
export function processLogDestination(): pino.DestinationStream {
  process.stdout.on('error', ignore)
  process.stderr.on('error', ignore)
  return pino.destination({ dest: 1, sync: true })
}

function ignore() {}
