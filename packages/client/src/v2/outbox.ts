import { type Internal, save } from './internal.js'

/** Topics whose outbox message is on its way (a reopen must not send it a second time). */
const sending = new WeakMap<Internal, Set<string>>()

/**
 * Sends what waits in the outbox (`disconnect`'s deletes sealed while the relay could not take them), each message
 * once at a time: it leaves the outbox when the relay has taken it, and stays for the next open of the socket (or
 * the next client on the same storage) when the relay could not. A message past its ttl is dropped unsent: the relay
 * would have dropped it too.
 */
export async function flushOutbox(internal: Internal): Promise<void> {
  const busy = sending.get(internal) ?? new Set<string>()
  sending.set(internal, busy)
  const { outbox } = internal.state
  const now = Date.now() / 1000
  await Promise.all(
    Object.entries(outbox).map(async ([topic, { expiry, ...sealed }]) => {
      if (busy.has(topic)) return
      if (expiry > now) {
        busy.add(topic)
        try {
          await internal.relay.request('irn_publish', sealed)
        } catch {
          // Not taken (relay down, closed, or refusing): kept for the next open.
          return
        } finally {
          busy.delete(topic)
        }
      }
      if (outbox[topic]?.message === sealed.message) delete outbox[topic]
      save(internal)
    }),
  )
}
