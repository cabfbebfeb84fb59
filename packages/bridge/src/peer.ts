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
  /** Below both bounds: a frame that keeps a socket under it needs no more checking. */
  readonly #quietBytes: number
  constructor(
    readonly maxBufferedBytes: number,
    readonly maxBufferedBytesPerIp: number,
  ) {
    this.#quietBytes = Math.min(maxBufferedBytes, maxBufferedBytesPerIp)
  }

  /**
   * Whether `text` may be written to `peer`, which holds `buffered` bytes unsent: `false` (and `peer` terminated) when
   * its own bytes plus the frame's pass `maxBufferedBytes`. Over the address's bound the socket with the largest
   * backlog is terminated (the reader furthest behind, `peer` itself or another) until the frame fits or `peer` is
   * gone: a reader keeping up behind the same NAT is not cut for its neighbours' backlog.
   */
  admit(peer: Peer, buffered: number, text: string): boolean {
    const backlog = this.#backlogs.get(peer.addressKey)
    // UTF-8 takes at most 3 bytes per UTF-16 unit: far from both bounds the frame's exact size is not needed.
    if (backlog === undefined && buffered + text.length * 3 <= this.#quietBytes) return true
    const size = Buffer.byteLength(text)
    if (buffered + size > this.maxBufferedBytes) return this.#drop(peer, backlog)
    if (backlog === undefined)
      return buffered + size <= this.maxBufferedBytesPerIp || this.#drop(peer, backlog)
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
      if (furthest === peer) return this.#drop(peer, backlog)
      this.#drop(furthest, backlog)
      total -= furthestUnsent
    }
    if (backlog.size === 0) this.#backlogs.delete(peer.addressKey)
    return true
  }

  /** Terminates `peer`, which leaves its address's sum; `false`, for `admit` to return. */
  #drop(peer: Peer, backlog: Set<Peer> | undefined): false {
    peer.ws.terminate()
    if (backlog?.delete(peer) && backlog.size === 0) this.#backlogs.delete(peer.addressKey)
    return false
  }

  /** After a write that left `peer` with `unsent` bytes still to send: a backlog joins its address's sum. */
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
    if (!guard.admit(this, ws.bufferedAmount, text)) return false
    ws.send(text)
    // What the kernel did not take at once: a reader keeping up leaves nothing.
    guard.wrote(this, ws.bufferedAmount)
    return true
  }

  close(code: number, reason: string) {
    this.ws.close(code, reason)
  }
}
