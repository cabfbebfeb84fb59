import { parseSequenced } from './linkWire.js'

/** What this node knows of one other node's stream to it. */
type Origin = {
  epoch: number
  /** The number of the next message to handle. */
  next: number
  /** Messages that came before their turn (over the other way than an earlier one), by number. */
  held: Map<number, Buffer> | undefined
  heldBytes: number
  holdTimer: NodeJS.Timeout | undefined
  /** Whether messages came over the link; messages handled since the last ack, and the last number acked. */
  linked: boolean
  unacked: number
  acked: number
  /** The ack on its way (`soon`: this turn; `later`: a timer). */
  ack: 'soon' | 'later' | undefined
  ackTimer: NodeJS.Timeout | NodeJS.Immediate | undefined
  messages: number
  idleSweeps: number
}

// Acks go back lazily (the sender keeps what is unacked, bounded): after this many messages, or this long.
const ACK_EVERY = 64
const ACK_DELAY_MS = 20
// How long (and how much) to hold messages waiting for an earlier one before giving it up as lost.
const HOLD_TIMEOUT_MS = 2_000
const MAX_HELD = 4_096
const MAX_HELD_BYTES = 16_777_216
// Sweeps (one a second) without a message before an origin is forgotten: far longer than a sender keeps a stream.
const IDLE_SWEEPS = 600

/** Parameters of {@link createStreamReceiver}. */
export type CreateStreamReceiverParameters = {
  /** Handles the message (without its number), in the order it was sent. */
  handle(message: Buffer): void
  /** Tells `origin` its messages up to `seq` of stream `epoch` were handled (over its link, if any). */
  ack(origin: string, epoch: number, seq: number): void
  /** Messages of `origin` that never came and were given up after the timeout. */
  gap(origin: string, missing: number): void
}

/**
 * The receiving side of the node streams (see nodeStreams.ts): handles each origin's numbered messages in order,
 * once, whichever way each came; one that comes early waits for those before it (bounded in time and size).
 */
export function createStreamReceiver(parameters: CreateStreamReceiverParameters) {
  const { handle } = parameters
  const origins = new Map<string, Origin>()

  const cancelAck = (origin: Origin) => {
    if (origin.ack === 'soon') clearImmediate(origin.ackTimer as NodeJS.Immediate)
    else clearTimeout(origin.ackTimer as NodeJS.Timeout | undefined)
  }
  const sendAck = (name: string, origin: Origin) => {
    origin.ack = undefined
    origin.ackTimer = undefined
    origin.unacked = 0
    origin.acked = origin.next - 1
    parameters.ack(name, origin.epoch, origin.acked)
  }
  const scheduleAck = (name: string, origin: Origin, now: boolean) => {
    origin.unacked++
    if (origin.ack === 'soon') return
    if (now || origin.unacked >= ACK_EVERY) {
      cancelAck(origin)
      origin.ack = 'soon'
      origin.ackTimer = setImmediate(() => sendAck(name, origin))
    } else if (!origin.ack) {
      origin.ack = 'later'
      origin.ackTimer = setTimeout(() => sendAck(name, origin), ACK_DELAY_MS).unref()
    }
  }

  const release = (origin: Origin) => {
    const { held } = origin
    if (!held) return
    for (let message = held.get(origin.next); message; message = held.get(origin.next)) {
      held.delete(origin.next++)
      origin.heldBytes -= message.length
      handle(message)
    }
    if (held.size > 0) return
    origin.held = undefined
    clearTimeout(origin.holdTimer)
    origin.holdTimer = undefined
  }
  // What never came is lost (its frames went through the script): the held messages are handled in order.
  const giveUp = (name: string, origin: Origin) => {
    const held = origin.held
    if (!held) return
    origin.held = undefined
    clearTimeout(origin.holdTimer)
    origin.holdTimer = undefined
    origin.heldBytes = 0
    for (const seq of [...held.keys()].sort((a, b) => a - b)) {
      if (seq > origin.next) parameters.gap(name, seq - origin.next)
      origin.next = seq + 1
      handle(held.get(seq) as Buffer)
    }
  }

  const originOf = (name: string, epoch: number) => {
    let origin = origins.get(name)
    if (origin?.epoch === epoch) return origin
    // A new stream: the sender forgot the last one long after its last message, so nothing of it is left.
    if (origin) {
      giveUp(name, origin)
      cancelAck(origin)
    }
    origin = {
      epoch,
      next: 1,
      held: undefined,
      heldBytes: 0,
      holdTimer: undefined,
      linked: false,
      unacked: 0,
      acked: 0,
      ack: undefined,
      ackTimer: undefined,
      messages: 0,
      idleSweeps: 0,
    }
    origins.set(name, origin)
    return origin
  }

  return {
    /** A numbered message (`s…`), from the origin's link (`viaLink`) or its Redis channel. */
    receive(message: Buffer, viaLink: boolean) {
      const parsed = parseSequenced(message)
      if (!parsed) throw new Error('node stream: malformed message')
      const { origin: name, seq, inner } = parsed
      const origin = originOf(name, parsed.epoch)
      origin.messages++
      if (seq === origin.next) {
        origin.next++
        handle(inner)
        release(origin)
      } else if (seq > origin.next && !origin.held?.has(seq)) {
        origin.held ??= new Map()
        // A copy: the chunk it came in is not kept for it.
        origin.held.set(seq, Buffer.from(inner))
        origin.heldBytes += inner.length
        origin.holdTimer ??= setTimeout(() => giveUp(name, origin), HOLD_TIMEOUT_MS).unref()
        if (origin.held.size > MAX_HELD || origin.heldBytes > MAX_HELD_BYTES) giveUp(name, origin)
      }
      // Acked over the link, also when a message through Redis let held link messages be handled.
      if (viaLink) origin.linked = true
      if (origin.linked && origin.next - 1 > origin.acked) scheduleAck(name, origin, false)
    },
    /** `name` asks for an ack now. */
    ackNow(name: string) {
      const origin = origins.get(name)
      if (origin) scheduleAck(name, origin, true)
    },
    /** Once a second: forgets origins silent for long. */
    sweep() {
      for (const [name, origin] of origins) {
        origin.idleSweeps = origin.messages > 0 || origin.held ? 0 : origin.idleSweeps + 1
        origin.messages = 0
        if (origin.idleSweeps >= IDLE_SWEEPS && !origin.ack) origins.delete(name)
      }
    },
    /** Stops acking. What still comes (through Redis while the node closes) is handled as before. */
    close() {
      for (const origin of origins.values()) cancelAck(origin)
    },
  }
}
