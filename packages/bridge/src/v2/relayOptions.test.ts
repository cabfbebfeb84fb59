import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { RELAY_LIMITS, readRelayLimits, relayLimitVariable, resolveRelayLimits } from './relayOptions.js'

describe('RELAY_LIMITS', () => {
  test("docs: docs/relay-v2.md's table names every limit with its flag, both variables and its default", () => {
    const docs = readFileSync(new URL('../../../../docs/relay-v2.md', import.meta.url), 'utf8')
    for (const limit of RELAY_LIMITS) {
      const variable = relayLimitVariable(limit)
      const row = `| \`${limit.key}\` | \`--relay-${limit.flag}\` | \`BRIDGE_RELAY_${variable}\` | \`RELAY_${variable}\` | ${limit.default} |`
      expect(docs, limit.key).toContain(row)
    }
  })

  test('default: an empty environment and no parameters give every named default', () => {
    expect(readRelayLimits({}, 'RELAY_')).toEqual({})
    const limits = resolveRelayLimits({})
    expect(Object.keys(limits)).toEqual(RELAY_LIMITS.map((limit) => limit.key))
    for (const limit of RELAY_LIMITS) expect(limits[limit.key]).toBe(limit.default)
  })

  test('args: variables are read by prefix; an empty one counts as unset', () => {
    expect(readRelayLimits({ X_MAX_TTL: '60', X_MAX_TOTAL_BYTES: '', MAX_TTL: '5' }, 'X_')).toEqual({
      maxTtlSeconds: 60,
    })
  })

  test('error: a variable that is not a number is named', () => {
    expect(() => readRelayLimits({ RELAY_MAX_ANSWER_BYTES: '1 MiB' }, 'RELAY_')).toThrow(
      'Invalid RELAY_MAX_ANSWER_BYTES: expected a number, got 1 MiB',
    )
  })
})
