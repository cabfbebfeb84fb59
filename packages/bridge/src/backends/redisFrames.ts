// The wire of v1 frames from one Redis backend node to others (over a link or a node's Redis channel). A frame:
// `d{origin}{ids sent to}:` when sent straight to nodes (a frame the enqueue script published has no such head), then
// `{topic bytes}:{topic}{owner bytes}:{owner}{frame}`. Several direct frames of one turn to one node go as one
// message, `b` then `{bytes}:{frame}` each (directBatches.ts). Numbers are read without a string on the way.
import { NODE_ID_LENGTH, readDecimal } from '../mesh/linkWire.js'

/** A direct frame for `targets` (node ids) from `nodeId`, and its length in bytes (`frameBytes`: the frame's). */
export function formatDirectFrame(
  nodeId: string,
  targets: readonly string[],
  topic: string,
  owner: string,
  frame: string,
  frameBytes: number,
) {
  const topicBytes = Buffer.byteLength(topic)
  const ownerBytes = Buffer.byteLength(owner)
  const head = `d${nodeId}${targets.join('')}:${topicBytes}:`
  const ownerHead = `${ownerBytes}:`
  // The head and owner length are ASCII.
  return {
    message: `${head}${topic}${ownerHead}${owner}${frame}`,
    bytes: head.length + topicBytes + ownerHead.length + ownerBytes + frameBytes,
  }
}

/** Calls `onFrame` with each frame of a message (a `b` batch, or one frame). */
export function forEachFrame(message: Buffer, onFrame: (frame: Buffer) => void) {
  if (message[0] !== 98) return onFrame(message) // 'b'
  for (let at = 1; at < message.length; ) {
    const sep = message.indexOf(58, at)
    const end = sep + 1 + readDecimal(message, at, sep)
    onFrame(message.subarray(sep + 1, end))
    at = end
  }
}

/** What {@link readFrame} hands on. */
export type FrameHandler = (
  message: Buffer,
  topic: string,
  frame: string,
  bytes: number,
  head: number,
  ownerAt: number,
) => void

/**
 * Reads a frame: `handle(message, topic, frame, bytes, head, ownerAt)`, `bytes` the frame's UTF-8 size, `head` the
 * length of its direct head (0: published by the script), `ownerAt` where its owner's length starts (for
 * {@link ownerOf}, read only when needed).
 */
export function readFrame(message: Buffer, handle: FrameHandler) {
  const head = message[0] === 100 ? message.indexOf(58) + 1 : 0 // 'd'
  const sep = message.indexOf(58, head)
  const ownerAt = sep + 1 + readDecimal(message, head, sep)
  const ownerSep = message.indexOf(58, ownerAt)
  const ownerEnd = ownerSep + 1 + readDecimal(message, ownerAt, ownerSep)
  handle(
    message,
    message.toString('utf8', sep + 1, ownerAt),
    message.toString('utf8', ownerEnd),
    message.length - ownerEnd,
    head,
    ownerAt,
  )
}

/** The owner of a frame whose owner length starts at `at`. */
export function ownerOf(message: Buffer, at: number): string {
  const sep = message.indexOf(58, at)
  return message.toString('utf8', sep + 1, sep + 1 + readDecimal(message, at, sep))
}

/** The origin of a direct frame, and the ids it was sent to (joined), its head being `head` long. */
export function directHead(message: Buffer, head: number) {
  return {
    origin: message.toString('latin1', 1, 1 + NODE_ID_LENGTH),
    sentTo: message.toString('latin1', 1 + NODE_ID_LENGTH, head - 1),
  }
}
