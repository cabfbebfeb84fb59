import { useCallback, useEffect, useRef, useState } from 'react'
import { useSendTransaction, useTransactionReceipt } from 'wagmi'
import { describeError } from '../describeError.js'
import { t } from '../i18n/i18n.js'
import type { PaymentStatus } from '../paymentStatus.js'
import type { SentPayment } from './usePaymentHistory.js'

/** Return type of {@link usePayment}. */
export type PaymentState = {
  status: PaymentStatus
  /** Asks the wallet to send `value` wei to `to`, then follows the transaction block by block. */
  send: (to: `0x${string}`, value: bigint) => Promise<void>
  /** Stops waiting for the wallet; a payment it still sends later is recorded, but this status no longer follows it. */
  cancel: () => void
}

/**
 * A payment's life: the wallet signs and broadcasts it (wagmi's `sendTransaction`), then each new block checks for
 * its receipt (pending → included in block N), after which the confirmations count up with the blocks. `onSent`
 * hears of the hash as soon as the wallet returns it (the app records the payment on the server there).
 *
 * @example
 * const { status, send } = usePayment(address, block.head, history.record)
 */
export function usePayment(
  account: `0x${string}`,
  blockNumber: bigint | undefined,
  onSent?: (sent: SentPayment) => void,
): PaymentState {
  // What the page asked and heard; 'included' comes from the receipt below.
  const [sent, setSent] = useState<PaymentStatus>({ step: 'idle' })
  const attempt = useRef(0)
  const sentRef = useRef(onSent)
  sentRef.current = onSent
  const { sendTransactionAsync } = useSendTransaction()

  const send = useCallback(
    async (to: `0x${string}`, value: bigint) => {
      const id = ++attempt.current
      setSent({ step: 'signing' })
      try {
        // The session's chain: the provider holds it and checks the transaction against it.
        const hash = await sendTransactionAsync({ account, to, value })
        if (id === attempt.current) setSent({ step: 'pending', hash })
        // Outside the attempt check: a payment the wallet sent is recorded even if another was started since.
        sentRef.current?.({ hash, to, value })
      } catch (error) {
        if (id === attempt.current) setSent({ step: 'failed', message: describeError(error, 'payment') })
      }
    },
    [sendTransactionAsync, account],
  )

  const cancel = useCallback(() => {
    attempt.current++
    setSent({ step: 'failed', message: t('stopped_waiting_payment') })
  }, [])

  const hash = sent.step === 'pending' ? sent.hash : undefined
  // A one-shot read of the receipt, asked again at each new block until there is one. Not wagmi's
  // useWaitForTransactionReceipt: it watches the chain with its own `eth_blockNumber` polling, while the provider's
  // `eth_getBlockByNumber('latest')` polling is the app's one clock (e2e/product/network.spec.ts counts the calls).
  // Forgotten once unwatched: a payment sent again later never starts from an old answer.
  const { data: receipt, refetch } = useTransactionReceipt({ hash, query: { gcTime: 0 } })
  // biome-ignore lint/correctness/useExhaustiveDependencies: blockNumber is the trigger — each new block reads again.
  useEffect(() => {
    // No receipt yet is an error of the query: still pending; a read under way (the first one) answers this block.
    if (hash && !receipt) void refetch({ cancelRefetch: false })
  }, [hash, receipt, blockNumber, refetch])

  const status: PaymentStatus =
    hash && receipt
      ? { step: 'included', hash, blockNumber: receipt.blockNumber, reverted: receipt.status === 'reverted' }
      : sent
  return { status, send, cancel }
}
