import type { StoredMessage } from '../src/v2/store.js'

/** A v2 message as a store keeps it (a publish of a few bytes to one topic), with `overrides`. */
export function storedMessage(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    topic: 'ab'.repeat(32),
    message: 'AAECAwQ=',
    tag: 1108,
    publishedAt: 1_700_000_000_123,
    expiresAt: 1_700_000_300_123,
    from: 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    owner: '127.0.0.1',
    attestation: undefined,
    bytes: 1_104,
    acked: undefined,
    id: '0123456789abcdef1z',
    seq: undefined,
    state: undefined,
    ...overrides,
  }
}
