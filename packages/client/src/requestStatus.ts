/**
 * Where a request to the wallet stands, as far as the dapp can know it (docs/request-lifecycle.md):
 * - `sent`: sealed and handed to the connection (on the wire, or waiting for the bridge/relay to be back);
 * - `relayed`: the relay said it keeps the message (v2's `irn_publish` answered `true`; v1's bridge says nothing);
 * - `answered`: the wallet's answer came back, a result or an error (a refusal is an answer);
 * - `expired`: the request's expiry or time-out passed with no answer;
 * - `failed`: it ended otherwise (could not be sent, cancelled, the session ended).
 *
 * There is no `received`: neither v1 nor v2 tells the sender that the wallet got a message (the wallet's
 * acknowledgement goes to the bridge/relay only), so the dapp never claims it.
 */
export type RequestStatus = 'sent' | 'relayed' | 'answered' | 'expired' | 'failed'

/** One step of a request's life. */
export type RequestStatusEvent = {
  /** The JSON-RPC id of the request on the wire. */
  id: number
  method: string
  status: RequestStatus
  /** When the step happened, in ms since the epoch. */
  at: number
  /** When the dapp stops waiting (the request's expiry or its time-out), in ms since the epoch; unset: never. */
  expiresAt: number | undefined
}

/** Called with each step of one request's life, in order; `answered`, `expired` and `failed` are the last. */
export type OnRequestStatus = (event: RequestStatusEvent) => void

/**
 * Reports the steps of one request to `onStatus` (none if unset): in order, each once, nothing after the last.
 * A listener that throws does not break the request.
 */
export function createStatusReporter(
  onStatus: OnRequestStatus | undefined,
  id: number,
  method: string,
  expiresAt: number | undefined,
): (status: RequestStatus) => void {
  // 1 sent, 2 relayed, 3 the last step: a step at or below the one reported says nothing new (a late `relayed`).
  let reported = 0
  return (status) => {
    const rank = status === 'sent' ? 1 : status === 'relayed' ? 2 : 3
    if (!onStatus || rank <= reported) return
    reported = rank
    try {
      onStatus({ id, method, status, at: Date.now(), expiresAt })
    } catch {
      // The listener's error is the listener's.
    }
  }
}
