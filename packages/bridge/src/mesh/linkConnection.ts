import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import {
  createLinkReader,
  encodeLinkFrameBytes,
  isLinkProof,
  LinkFrame,
  linkProof,
  NODE_ID_LENGTH,
  NONCE_BYTES,
} from './linkWire.js'

// A connection that has not proven itself by then is closed.
export const HANDSHAKE_TIMEOUT_MS = 5_000
// Dead peers are found by TCP keep-alive too, not only by a failed write.
const KEEPALIVE_MS = 10_000
// Handshake frames and acks are small: a connection gets larger frames only once authenticated.
const MAX_SMALL_FRAME_BYTES = 1_024

/** What both ends of a link connection know. */
type Side = {
  nodeId: string
  secret: Uint8Array
  /** A protocol error, a refused proof, or a throw while handling a frame: the connection is closed after it. */
  failed(error: unknown): void
}

// Every link socket: no Nagle delay, keep-alive, errors end in `close`; a handshake not done in time closes it.
function prepare(socket: Socket, side: Side, read: (chunk: Buffer) => void) {
  socket.setNoDelay(true)
  socket.setKeepAlive(true, KEEPALIVE_MS)
  socket.on('error', () => {})
  socket.on('data', (chunk: Buffer) => {
    try {
      read(chunk)
    } catch (error) {
      side.failed(error)
      socket.destroy()
    }
  })
  return setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS).unref()
}

/**
 * The listening end of a connection: challenges the dialer, checks its proof, proves itself, then hands on the
 * dialer's frames. `onAuthenticated` names the dialer once it proved it knows the secret.
 */
export function serveLinkConnection(
  socket: Socket,
  side: Side & {
    maxFrameBytes: number
    onAuthenticated(origin: string): void
    onMessage(origin: string, body: Buffer): void
    onAckRequest(origin: string): void
  },
) {
  const { nodeId, secret } = side
  const nonce = randomBytes(NONCE_BYTES)
  let origin: string | undefined
  const timer = prepare(
    socket,
    side,
    createLinkReader(
      () => (origin === undefined ? MAX_SMALL_FRAME_BYTES : side.maxFrameBytes),
      (type, body) => {
        if (origin !== undefined) {
          if (type === LinkFrame.message) side.onMessage(origin, body)
          else if (type === LinkFrame.ackNow) side.onAckRequest(origin)
          else throw new Error('node link: unexpected frame')
          return
        }
        const dialer = body.toString('latin1', 0, NODE_ID_LENGTH)
        const dialerNonce = body.subarray(NODE_ID_LENGTH, NODE_ID_LENGTH + NONCE_BYTES)
        const proof = body.subarray(NODE_ID_LENGTH + NONCE_BYTES)
        if (
          type !== LinkFrame.hello ||
          dialerNonce.length !== NONCE_BYTES ||
          !isLinkProof(proof, linkProof(secret, 'dialer', nonce, dialerNonce, dialer, nodeId))
        )
          throw new Error('node link: authentication failed')
        origin = dialer
        clearTimeout(timer)
        socket.write(
          encodeLinkFrameBytes(
            LinkFrame.welcome,
            linkProof(secret, 'listener', nonce, dialerNonce, dialer, nodeId),
          ),
        )
        side.onAuthenticated(dialer)
      },
    ),
  )
  socket.write(encodeLinkFrameBytes(LinkFrame.challenge, Buffer.from(nodeId, 'latin1'), nonce))
}

/**
 * The dialling end of a connection to `node`: answers the challenge if it comes from `node` (not another node
 * listening at its old address), checks the listener's proof, then reports acks.
 */
export function openLinkConnection(
  socket: Socket,
  side: Side & { node: string; onUp(): void; onAck(epoch: number, seq: number): void },
) {
  const { nodeId, secret, node } = side
  const nonce = randomBytes(NONCE_BYTES)
  // The listener's proof this node expects, once challenged.
  let expected: Buffer | undefined
  let up = false
  const timer = prepare(
    socket,
    side,
    createLinkReader(
      () => MAX_SMALL_FRAME_BYTES,
      (type, body) => {
        if (up && type === LinkFrame.ack) {
          const [epoch, seq] = body.toString('latin1').split('.').map(Number)
          return side.onAck(epoch as number, seq as number)
        }
        if (!expected && type === LinkFrame.challenge) {
          if (body.toString('latin1', 0, NODE_ID_LENGTH) !== node) throw new Error('node link: another node')
          const listenerNonce = body.subarray(NODE_ID_LENGTH)
          socket.write(
            encodeLinkFrameBytes(
              LinkFrame.hello,
              Buffer.from(nodeId, 'latin1'),
              nonce,
              linkProof(secret, 'dialer', listenerNonce, nonce, nodeId, node),
            ),
          )
          expected = linkProof(secret, 'listener', listenerNonce, nonce, nodeId, node)
          return
        }
        if (!expected || up || type !== LinkFrame.welcome || !isLinkProof(body, expected))
          throw new Error('node link: authentication failed')
        clearTimeout(timer)
        up = true
        side.onUp()
      },
    ),
  )
}
