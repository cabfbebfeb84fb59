// Bytes of direct frames to one node sent as one message at most; a larger batch goes out at once.
const MAX_BATCH_BYTES = 1_048_576

/** Direct frames to one node waiting for the end of the event-loop turn. */
type Batch = {
  /** Each frame's message; from the second on, each preceded by its length in bytes. */
  messages: string[]
  bytes: number
  /** How many received the batch (listeners of the node's channel, or 1 once acked over a link). */
  sent: Promise<number>
  resolve: (listeners: number) => void
  reject: (error: unknown) => void
}

/**
 * Direct frames wait for the end of the event-loop turn and go out as one message per node (`b{bytes}:{frame}…`, or
 * the frame alone): ioredis, the link and the receiver pay per message, not per frame. `send` sends one; `flushed`
 * runs after every batch of the turn was handed to `send`.
 */
export function createDirectBatches(
  send: (
    node: string,
    message: string,
    bytes: number,
    resolve: Batch['resolve'],
    reject: Batch['reject'],
  ) => void,
  flushed: () => void,
) {
  const batches = new Map<string, Batch>()
  let flushing: NodeJS.Immediate | undefined

  const sendBatch = (node: string, batch: Batch) => {
    batches.delete(node)
    const message =
      batch.messages.length === 1 ? (batch.messages[0] as string) : `b${batch.messages.join('')}`
    send(node, message, batch.bytes, batch.resolve, batch.reject)
  }
  const flush = () => {
    flushing = undefined
    for (const [node, batch] of batches) sendBatch(node, batch)
    flushed()
  }

  return {
    /** Adds `message` (`bytes` long) to `node`'s batch; resolves with how many received the batch. */
    add(node: string, message: string, bytes: number) {
      let batch = batches.get(node)
      if (batch && batch.bytes + bytes > MAX_BATCH_BYTES) {
        sendBatch(node, batch)
        batch = undefined
      }
      if (!batch) {
        let resolve: Batch['resolve'] = () => {}
        let reject: Batch['reject'] = () => {}
        const sent = new Promise<number>((yes, no) => {
          resolve = yes
          reject = no
        })
        batch = { messages: [], bytes: 0, sent, resolve, reject }
        batches.set(node, batch)
        flushing ??= setImmediate(flush)
      }
      // A lone frame goes as it is; in a batch each is preceded by its length in bytes.
      batch.messages.push(batch.messages.length === 0 ? message : `${bytes}:${message}`)
      if (batch.messages.length === 2) batch.messages[0] = `${batch.bytes}:${batch.messages[0]}`
      batch.bytes += bytes
      return batch.sent
    },
    /** Sends what waits now (on close). */
    flush() {
      if (!flushing) return
      clearImmediate(flushing)
      flush()
    },
  }
}
