import type { OnRequestStatus, RequestStatus, RequestStatusEvent } from '@pairlink/client'

export type { RequestStatus, RequestStatusEvent }

/** The provider's `requestStatus` event: one step of a request to the wallet. */
export type RequestStatusEvents = {
  /**
   * Each step of a request to the wallet (signing, `wallet_*`), in order: `sent`, `relayed` (v2 only: the relay
   * keeps it), then one of `answered`, `expired`, `failed`. What each step means over v1 and v2:
   * docs/request-lifecycle.md.
   */
  requestStatus: RequestStatusEvent
}

/**
 * Wraps `onStatus` for a client that does not time out by itself (v2's, whose own expiry is the wire's): the
 * provider's `timeout` is the earlier deadline, so `expiresAt` says the earlier one, and `expire()` (called when the
 * provider stops waiting) reports `expired` once and silences whatever the request says afterwards.
 */
export function withDeadline(
  onStatus: OnRequestStatus | undefined,
  timeout: number | undefined,
): { onStatus: OnRequestStatus | undefined; expire(): void } {
  const deadline = Date.now() + (timeout ?? Number.POSITIVE_INFINITY)
  let last: RequestStatusEvent | undefined
  const report =
    onStatus &&
    ((event: RequestStatusEvent) => {
      if (last && last.status !== 'sent' && last.status !== 'relayed') return
      last = { ...event, expiresAt: Math.min(event.expiresAt ?? deadline, deadline) }
      onStatus(last)
    })
  return {
    onStatus: report,
    expire: () => last && report?.({ ...last, status: 'expired', at: Date.now() }),
  }
}
