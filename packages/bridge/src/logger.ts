/**
 * What the bridge logs through: the four methods it calls, each taking a structured object and a message, as
 * pino's do. A pino logger fits as it is; so does `console`. Log objects never carry a payload, a key or a URL
 * with credentials.
 *
 * @example
 * import pino from 'pino'
 * const bridge = createBridge({ logger: pino({ level: 'info' }) })
 */
export type Logger = {
  debug(object: Record<string, unknown>, message: string): void
  info(object: Record<string, unknown>, message: string): void
  warn(object: Record<string, unknown>, message: string): void
  error(object: Record<string, unknown>, message: string): void
}

const noop = () => {}

/** The default logger: drops everything, so embedding the bridge prints nothing unless the app asks. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop }
