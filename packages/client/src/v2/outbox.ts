import { RelayError } from './errors.js'
import { type Internal, save } from './internal.js'

/** Keys whose outbox message is on its way (a reopen must not send it a second time). */
const sending = new WeakMap<Internal, Set<string>>()

// What an outage looks like from here: the relay did not answer in time, or the socket was closed under the call.
const UNREACHABLE = new Set<unknown>(['ERR_RELAY_TIMEOUT', 'ERR_RELAY_CLOSED'])

/**
 * Sends what waits in the outbox (`disconnect`'s deletes, the dapp's requests and the wallet's answers, sealed while
 * the relay could not take them), each message once at a time: it leaves the outbox when the relay has taken it, and
 * stays for the next open of the socket (or the next client on the same storage) when the relay could not be reached.
 * A message past its expiry is dropped unsent: the relay would have dropped it too. A message the relay refused (an
 * error answer, or the relay refusing this client) fails the request waiting for it (`id`) instead of waiting on.
 */
export async function flushOutbox(internal: Internal): Promise<void> {
  const busy = sending.get(internal) ?? new Set<string>()
  sending.set(internal, busy)
  const { outbox } = internal.state
  const now = Date.now() / 1000
  await Promise.all(
    Object.entries(outbox).map(async ([key, { expiry, id, ...sealed }]) => {
      if (busy.has(key)) return
      if (expiry > now) {
        busy.add(key)
        try {
          await internal.relay.request('irn_publish', sealed)
          if (id !== undefined) internal.sent.get(id)?.relayed?.()
        } catch (error) {
          const waiting = id === undefined ? undefined : internal.sent.get(id)
          // Not taken while the relay is down (or by a refusing relay, with nobody to tell): kept for the next open.
          if (!waiting || (error instanceof RelayError && UNREACHABLE.has(error.code))) return
          waiting.reject(error)
        } finally {
          busy.delete(key)
        }
      }
      if (outbox[key]?.message === sealed.message) delete outbox[key]
      save(internal)
    }),
  )
}
