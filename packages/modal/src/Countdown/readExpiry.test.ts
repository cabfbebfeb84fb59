import { formatPairingUri } from '@pairlink/protocol/v2'
import { describe, expect, test } from 'vitest'
import { uri as v1Uri } from '../../test/fixtures.js'
import { readExpiry } from './readExpiry.js'

const topic = 'a'.repeat(64)
const symKey = 'b'.repeat(64)

describe('readExpiry', () => {
  test('default: a v2 URI gives its expiryTimestamp in milliseconds', () => {
    expect(readExpiry(formatPairingUri({ topic, symKey, expiryTimestamp: 1_700_000_300 }))).toBe(
      1_700_000_300_000,
    )
  })

  test('behavior: a v1 URI has no expiry', () => {
    expect(readExpiry(v1Uri)).toBeUndefined()
    // Not even when a v1 URI carries the parameter: only v2 defines it.
    expect(readExpiry(`${v1Uri}&expiryTimestamp=1700000300`)).toBeUndefined()
  })

  test('args: a v2 URI without expiryTimestamp, or with one that is not a number', () => {
    expect(readExpiry(formatPairingUri({ topic, symKey }))).toBeUndefined()
    expect(
      readExpiry(`wc:${topic}@2?relay-protocol=irn&symKey=${symKey}&expiryTimestamp=soon`),
    ).toBeUndefined()
    expect(readExpiry(`wc:${topic}@2?expiryTimestamp=-1&relay-protocol=irn`)).toBeUndefined()
    expect(readExpiry(`wc:${topic}@2`)).toBeUndefined()
  })
})
