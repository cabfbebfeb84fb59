import { useCallback, useEffect, useRef, useState } from 'react'
import type { PublicClient, WalletClient } from 'viem'
import { describeError } from '../describeError.js'
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

/** What the payment card says after Cancel: the wallet may still send the payment if approved there. */
const PAYMENT_CANCELLED =
  'You stopped waiting for the wallet. If it still shows the payment, reject it there: approved now, it is still sent.'

/**
 * A payment's life: the wallet signs and broadcasts it, then each new block checks for its receipt (pending →
 * included in block N), after which the confirmations count up with the blocks. `onSent` hears of the hash as soon
 * as the wallet returns it (the app records the payment on the server there).
 *
 * @example
 * const { status, send } = usePayment(walletClient, publicClient, address, block.number, history.record)
 */
export function usePayment(
  walletClient: WalletClient,
  publicClient: PublicClient,
  account: `0x${string}` | undefined,
  blockNumber: bigint | undefined,
  onSent?: (sent: SentPayment) => void,
): PaymentState {
  const [status, setStatus] = useState<PaymentStatus>({ step: 'idle' })
  const attempt = useRef(0)
  const sentRef = useRef(onSent)
  sentRef.current = onSent

  const send = useCallback(
    async (to: `0x${string}`, value: bigint) => {
      const id = ++attempt.current
      setStatus({ step: 'signing' })
      try {
        if (!account) throw new Error('No account connected')
        // chain: null — the provider already holds the session's chain and checks it.
        const hash = await walletClient.sendTransaction({ account, to, value, chain: null })
        if (id === attempt.current) setStatus({ step: 'pending', hash })
        // Outside the attempt check: a payment the wallet sent is recorded even if another was started since.
        sentRef.current?.({ hash, to, value })
      } catch (error) {
        if (id === attempt.current) setStatus({ step: 'failed', message: describeError(error, 'payment') })
      }
    },
    [walletClient, account],
  )

  const cancel = useCallback(() => {
    attempt.current++
    setStatus({ step: 'failed', message: PAYMENT_CANCELLED })
  }, [])

  const pendingHash = status.step === 'pending' ? status.hash : undefined
  // biome-ignore lint/correctness/useExhaustiveDependencies: blockNumber is the trigger — each new block reads again.
  useEffect(() => {
    if (!pendingHash) return
    let live = true
    publicClient.getTransactionReceipt({ hash: pendingHash }).then(
      (receipt) => {
        if (!live) return
        setStatus({
          step: 'included',
          hash: pendingHash,
          blockNumber: receipt.blockNumber,
          reverted: receipt.status === 'reverted',
        })
      },
      // No receipt yet: still pending; the next block asks again.
      () => {},
    )
    return () => {
      live = false
    }
  }, [publicClient, pendingHash, blockNumber])

  return { status, send, cancel }
}
