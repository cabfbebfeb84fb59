import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The wire of a node link (a TCP connection from one bridge node to another): frames of
 * `{u32 big-endian length}{type byte}{body}`, the length counting the type byte and the body.
 *
 * Handshake (challenge–response, HMAC-SHA256 with the secret the nodes share, once per connection):
 * - listener → dialer `c`: the listener's node id (16 characters) and a fresh nonce (16 bytes);
 * - dialer → listener `h`: the dialer's node id, its own fresh nonce and its proof;
 * - listener → dialer `w`: the listener's proof.
 * Each proof is the HMAC of a label naming its side, both nonces and both ids, so neither can be replayed or
 * reflected. Then the dialer sends `m` (a numbered message, see nodeStreams.ts) and `r` (answer with an ack now);
 * the listener answers `a` with `{epoch}.{seq}`: it has handled the dialer's messages of that stream up to `seq`.
 */
export const LinkFrame = {
  challenge: 0x63, // c
  hello: 0x68, // h
  welcome: 0x77, // w
  message: 0x6d, // m
  ackNow: 0x72, // r
  ack: 0x61, // a
} as const

export const NODE_ID_LENGTH = 16
export const NONCE_BYTES = 16
const PROOF_BYTES = 32

/** A frame of `type` whose body is `head` (Latin-1) then `body` (UTF-8), ready to write. */
export function encodeLinkFrame(type: number, head = '', body = ''): Buffer {
  const bodyBytes = Buffer.byteLength(body)
  const frame = Buffer.allocUnsafe(5 + head.length + bodyBytes)
  frame.writeUInt32BE(1 + head.length + bodyBytes, 0)
  frame[4] = type
  frame.write(head, 5, 'latin1')
  frame.write(body, 5 + head.length, 'utf8')
  return frame
}

/** A frame of `type` whose body is `parts` concatenated. */
export function encodeLinkFrameBytes(type: number, ...parts: Uint8Array[]): Buffer {
  let length = 1
  for (const part of parts) length += part.length
  const head = Buffer.allocUnsafe(5)
  head.writeUInt32BE(length, 0)
  head[4] = type
  return Buffer.concat([head, ...parts])
}

/**
 * Cuts a byte stream into frames, calling `onFrame(type, body)` for each (`body` shares memory with the chunks: copy
 * what is kept). Chunks of an incomplete frame are joined once it is complete. Throws on a frame longer than
 * `maxFrameBytes()`.
 */
export function createLinkReader(maxFrameBytes: () => number, onFrame: (type: number, body: Buffer) => void) {
  let pending: Buffer[] = []
  let buffered = 0
  // Bytes the next frame needs from the start of `pending`: its length once known, else the length's.
  let needed = 5
  return (chunk: Buffer) => {
    pending.push(chunk)
    buffered += chunk.length
    if (buffered < needed) return
    const data = pending.length === 1 ? chunk : Buffer.concat(pending, buffered)
    pending = []
    buffered = 0
    needed = 5
    let at = 0
    while (data.length - at >= 5) {
      const length = data.readUInt32BE(at)
      if (length < 1 || length > maxFrameBytes()) throw new Error(`link frame of ${length} bytes`)
      if (data.length - at - 4 < length) {
        needed = 4 + length
        break
      }
      onFrame(data[at + 4] as number, data.subarray(at + 5, at + 4 + length))
      at += 4 + length
    }
    if (at === data.length) return
    // A copy of a short rest, rather than keep a large chunk for a few bytes.
    const rest = data.length - at < 4_096 ? Buffer.from(data.subarray(at)) : data.subarray(at)
    pending.push(rest)
    buffered = rest.length
  }
}

/** The proof of one side of a handshake. */
export function linkProof(
  secret: Uint8Array,
  side: 'dialer' | 'listener',
  listenerNonce: Uint8Array,
  dialerNonce: Uint8Array,
  dialer: string,
  listener: string,
): Buffer {
  return createHmac('sha256', secret)
    .update(`pairlink-link-v1 ${side} ${dialer} ${listener} `)
    .update(listenerNonce)
    .update(dialerNonce)
    .digest()
}

/** Whether `proof` is the expected one, compared in constant time. */
export function isLinkProof(proof: Uint8Array, expected: Uint8Array): boolean {
  return proof.length === PROOF_BYTES && timingSafeEqual(proof, expected)
}

/**
 * The head of a numbered message from node `origin`: `s{origin}{epoch}.{seq}:` (Latin-1), then the message. `epoch`
 * names the stream (a node opens a new one to a node after forgetting the last), `seq` counts from 1 in it.
 */
export const sequencedHead = (origin: string, epoch: number, seq: number) => `s${origin}${epoch}.${seq}:`

/** The decimal number in `message[from, to)`, without a string on the way; NaN unless 1 to 15 digits. */
export function readDecimal(message: Buffer, from: number, to: number) {
  if (to <= from || to - from > 15) return Number.NaN
  let value = 0
  for (let at = from; at < to; at++) {
    const digit = (message[at] as number) - 48
    if (digit < 0 || digit > 9) return Number.NaN
    value = value * 10 + digit
  }
  return value
}

/** Parses a numbered message (starting with `s`); undefined when malformed. */
export function parseSequenced(message: Buffer) {
  const dot = message.indexOf(46, 1 + NODE_ID_LENGTH) // '.'
  const colon = dot === -1 ? -1 : message.indexOf(58, dot) // ':'
  if (colon === -1) return undefined
  const epoch = readDecimal(message, 1 + NODE_ID_LENGTH, dot)
  const seq = readDecimal(message, dot + 1, colon)
  if (!(epoch >= 0 && seq >= 1)) return undefined
  return {
    origin: message.toString('latin1', 1, 1 + NODE_ID_LENGTH),
    epoch,
    seq,
    inner: message.subarray(colon + 1),
  }
}
