// One WebSocket as the core's `Socket`, and the bound on what the server holds for readers that stopped reading.
import type { WebSocket } from 'ws'
import type { Connection, Socket } from './createBridge.js'

/**
 * Unsent bytes above which a socket counts toward its address's sum: below it a socket is a reader keeping up, and
 * its sends pay no more than one map look-up.
 */
const BACKLOG_BYTES = 64 * 1024

/**
 * The unsent bytes the server holds for readers that stopped reading (reference §3.3: a client that reconnects
 * drains its queue there, so dropping a socket loses nothing kept): per socket at most `maxBufferedBytes`, and for
 * all the sockets of one address (`addressKey`) at most `maxBufferedBytesPerIp`, frame being written included.
 * v1 and v2 sockets share it.
 */
export class SlowReaderGuard {
  /** Per address, its sockets with more than {@link BACKLOG_BYTES} unsent (some may have drained since). */
  readonly #backlogs = new Map<string, Set<Peer>>()
  constructor(
    readonly maxBufferedBytes: number,
    readonly maxBufferedBytesPerIp: number,
  ) {}

  /**
   * Whether `size` more bytes may be written to `peer`, which holds `buffered` unsent. Over the address's bound the
   * socket with the largest backlog is terminated (the reader furthest behind, `peer` itself or another), until the
   * frame fits or `peer` is gone: a reader keeping up behind the same NAT is not cut for its neighbours' backlog.
   */
  admit(peer: Peer, buffered: number, size: number): boolean {
    const backlog = this.#backlogs.get(peer.addressKey)
    if (backlog === undefined) {
      if (buffered + size <= this.maxBufferedBytesPerIp) return true
      peer.ws.terminate()
      return false
    }
    let total = size + (backlog.has(peer) ? 0 : buffered)
    for (const other of backlog) {
      const unsent = other.ws.bufferedAmount
      // Drained or closed since: no longer part of the sum (a closed one leaves through `forget` too).
      if (unsent <= BACKLOG_BYTES || other.ws.readyState !== other.ws.OPEN) backlog.delete(other)
      total += unsent
    }
    while (total > this.maxBufferedBytesPerIp) {
      let furthest = peer
      let furthestUnsent = buffered
      for (const other of backlog) {
        const unsent = other.ws.bufferedAmount
        if (unsent > furthestUnsent) {
          furthest = other
          furthestUnsent = unsent
        }
      }
      backlog.delete(furthest)
      furthest.ws.terminate()
      if (furthest === peer) break
      total -= furthestUnsent
    }
    if (backlog.size === 0) this.#backlogs.delete(peer.addressKey)
    return peer.ws.readyState === peer.ws.OPEN
  }

  /** After a write that left `peer` with `unsent` bytes to send: a backlog joins its address's sum. */
  wrote(peer: Peer, unsent: number) {
    if (unsent <= BACKLOG_BYTES) return
    let backlog = this.#backlogs.get(peer.addressKey)
    if (backlog === undefined) {
      backlog = new Set()
      this.#backlogs.set(peer.addressKey, backlog)
    }
    backlog.add(peer)
  }

  /** A closed socket leaves its address's sum. */
  forget(peer: Peer) {
    const backlog = this.#backlogs.get(peer.addressKey)
    if (!backlog?.delete(peer)) return
    if (backlog.size === 0) this.#backlogs.delete(peer.addressKey)
  }
}

/** A `ws` socket as the core's {@link Socket}; methods on the prototype keep idle sockets small. */
export class Peer implements Socket {
  alive = true
  pingedAt = 0
  connection!: Connection
  constructor(
    readonly ws: WebSocket,
    readonly id: string,
    readonly remoteAddress: string,
    /** `addressKey(remoteAddress)`: the group whose unsent bytes are bounded together. */
    readonly addressKey: string,
    readonly guard: SlowReaderGuard,
  ) {}

  send(text: string) {
    const { ws, guard } = this
    if (ws.readyState !== ws.OPEN) return false
    // A reader that stopped reading would grow this buffer without bound; its client reconnects and drains. The frame
    // counts before it is written: one large answer must not pass because the buffer was empty.
    const buffered = ws.bufferedAmount
    const size = Buffer.byteLength(text)
    if (buffered + size > guard.maxBufferedBytes) {
      guard.forget(this)
      ws.terminate()
      return false
    }
    if (!guard.admit(this, buffered, size)) return false
    ws.send(text)
    guard.wrote(this, buffered + size)
    return true
  }

  close(code: number, reason: string) {
    this.ws.close(code, reason)
  }
}
