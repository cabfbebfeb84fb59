import type { CliOption } from './cliOption.js'
import { InvalidBridgeOptionsError } from './errors.js'

/**
 * A flag's or variable's raw value as its option's kind: a boolean (`1`/`true`/`yes`, `0`/`false`/`no`), a finite
 * number, a comma-separated list (entries trimmed, empty ones dropped) or the string. Throws
 * `InvalidBridgeOptionsError` naming the flag (or the variable) on a value of the wrong type.
 */
export function convertCliValue(option: CliOption, raw: string | boolean): unknown {
  switch (option.kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw
      if (/^(1|true|yes)$/i.test(raw)) return true
      if (/^(0|false|no)$/i.test(raw)) return false
      throw new InvalidBridgeOptionsError(`Invalid ${option.env}: expected true or false`)
    case 'number': {
      const value = Number(raw)
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value))
        throw new InvalidBridgeOptionsError(`Invalid --${option.flag}: expected a number, got ${String(raw)}`)
      return value
    }
    case 'list':
      return String(raw)
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    default:
      return String(raw)
  }
}
