import { bytesToHex } from './hex.js'

/**
 * A fresh topic id: a UUID v4, 36 lowercase characters (reference §4.1). Built on `getRandomValues`, which unlike
 * `crypto.randomUUID` exists in insecure browser contexts too.
 */
export function createTopic(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytesToHex(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

let lastPayloadId = 0

/**
 * A JSON-RPC id as v1 makes them, `Date.now() * 1000 + random(0..999)` (16 digits), but strictly increasing within
 * one process: v1's ids collide when two requests share a millisecond and a random draw.
 */
export function payloadId(): number {
  const id = Date.now() * 1000 + Math.floor(Math.random() * 1000)
  lastPayloadId = id > lastPayloadId ? id : lastPayloadId + 1
  return lastPayloadId
}
