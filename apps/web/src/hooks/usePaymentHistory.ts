import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { hasOpenPayments, mergePayment } from '../components/PaymentHistory/paymentHistory.js'
import { describeServerError } from '../describeServerError.js'
import { listPayments, type Payment, recordPayment, ServerError } from '../serverApi.js'

/** A payment the wallet just sent, as the app records it. */
export type SentPayment = { hash: `0x${string}`; to: `0x${string}`; value: bigint }

/** How recording the last sent payment went. */
export type RecordState =
  | { step: 'saving'; hash: `0x${string}` }
  | { step: 'saved'; hash: `0x${string}` }
  | { step: 'failed'; hash: `0x${string}`; message: string }

/** Return type of {@link usePaymentHistory}. */
export type PaymentHistoryState = {
  /** Newest first; `undefined` until the first answer. */
  payments: Payment[] | undefined
  /** Why the list could not be read, in plain words. */
  error: string | undefined
  lastRecord: RecordState | undefined
  /** Records a payment the wallet just sent (`POST /api/payments`); the server then follows it. */
  record: (sent: SentPayment) => Promise<void>
}

/**
 * The signed-in account's payments from `GET /api/payments`, as a TanStack query keyed on the account: read on
 * sign-in, then again on each new block while any is still pending or included, so the list follows the server's
 * own confirmation tracking.
 *
 * @example
 * const history = usePaymentHistory(signIn.account?.address, block.number, signIn.sessionEnded)
 */
export function usePaymentHistory(
  signedInAs: string | undefined,
  blockNumber: bigint | undefined,
  onSessionEnded: () => void,
): PaymentHistoryState {
  const queryClient = useQueryClient()
  const [lastRecord, setLastRecord] = useState<RecordState | undefined>()
  const ended = useRef(onSessionEnded)
  ended.current = onSessionEnded

  const failed = useCallback((reason: unknown) => {
    if (reason instanceof ServerError && reason.status === 401) ended.current()
    return describeServerError(reason, 'payments')
  }, [])

  // Another account's list must never show under this one, nor an earlier list of this one: forgotten unwatched.
  const query = useQuery({
    queryKey: ['payments', signedInAs],
    queryFn: () =>
      listPayments().catch((reason: unknown) => {
        throw new Error(failed(reason))
      }),
    enabled: Boolean(signedInAs),
    gcTime: 0,
  })
  const payments = query.data
  const { refetch } = query

  // biome-ignore lint/correctness/useExhaustiveDependencies: signedInAs is the trigger — a new account starts afresh.
  useEffect(() => setLastRecord(undefined), [signedInAs])

  const trigger = hasOpenPayments(payments) ? blockNumber : undefined
  // Each new block reads again while a payment is open.
  useEffect(() => {
    if (signedInAs && trigger !== undefined) void refetch({ cancelRefetch: false })
  }, [signedInAs, trigger, refetch])

  const record = useCallback(
    async ({ hash, to, value }: SentPayment) => {
      if (!signedInAs) return
      setLastRecord({ step: 'saving', hash })
      try {
        const saved = await recordPayment({ txHash: hash, to, value })
        queryClient.setQueryData<Payment[]>(['payments', signedInAs], (current) =>
          mergePayment(current, saved),
        )
        setLastRecord({ step: 'saved', hash })
      } catch (reason) {
        setLastRecord({ step: 'failed', hash, message: failed(reason) })
      }
    },
    [signedInAs, failed, queryClient],
  )

  return { payments, error: query.error?.message, lastRecord, record }
}
