import { useState } from 'react'
import { formatBalance } from '../../format.js'
import { useFollowedBalance } from '../../hooks/useFollowedBalance.js'
import { usePayment } from '../../hooks/usePayment.js'
import type { RecordState, SentPayment } from '../../hooks/usePaymentHistory.js'
import { useWalletPrompt } from '../../hooks/useWalletPrompt.js'
import { t } from '../../i18n/i18n.js'
import { describeSentPayment } from '../../paymentStatus.js'
import type { Payment } from '../../serverApi.js'
import { CancelButton, Card } from '../Card/Card.js'
import { RequestLifeLine } from '../RequestLife/RequestLife.js'
import { checkPayment } from './checkPayment.js'
import { parsePaymentForm } from './parsePaymentForm.js'

/** The dev chain's second funded account: a recipient that works out of the box. */
const DEFAULT_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** Props of {@link SendPayment}. */
export type SendPaymentProps = {
  address: `0x${string}`
  /** The session's chain, and the one the app's node serves: a payment needs both the same. */
  chainId: number
  appChainId: number
  /** The session's WalletConnect generation, for what a payment on another chain is told to do. @default 1 */
  protocol?: 1 | 2 | undefined
  /** The account's balance, to refuse an amount it cannot cover before asking the wallet. */
  balance: bigint | undefined
  blockNumber: bigint | undefined
  /** Whether the server keeps a record of this account's payments. */
  signedIn: boolean
  /** Called with the hash as soon as the wallet returns it. */
  onSent: (sent: SentPayment) => void
  /** How recording the last payment went. */
  lastRecord: RecordState | undefined
  /** The server's records of this account's payments: once the sent one is there, its count is the one shown. */
  records?: readonly Payment[] | undefined
}

/** The line about the payment's record on the server, or nothing. */
function RecordLine({ signedIn, record }: { signedIn: boolean; record: RecordState | undefined }) {
  if (!signedIn) {
    return (
      <p className="muted small-text" data-testid="payment-record" data-state="signed-out">
        {t('record_signed_out')}
      </p>
    )
  }
  if (!record) return null
  const text =
    record.step === 'saving'
      ? t('record_saving')
      : record.step === 'saved'
        ? t('record_saved')
        : t('record_failed', { reason: record.message })
  return (
    <p
      className={`small-text ${record.step === 'failed' ? 'error' : 'muted'}`}
      role={record.step === 'failed' ? 'alert' : 'status'}
      data-testid="payment-record"
      data-state={record.step}
    >
      {text}
    </p>
  )
}

/**
 * Sends ETH through the wallet and follows it: pending → in block N → confirmations; the recipient's balance. When
 * signed in, the payment is also recorded on the server.
 */
export function SendPayment(props: SendPaymentProps) {
  const { address, blockNumber, signedIn, onSent, lastRecord, records } = props
  const [recipient, setRecipient] = useState(DEFAULT_RECIPIENT)
  const [amount, setAmount] = useState('0.01')
  const [invalid, setInvalid] = useState<
    { field: 'recipient' | 'amount' | 'chain'; message: string } | undefined
  >()
  const payment = usePayment(address, blockNumber, onSent)
  const prompt = useWalletPrompt()
  const form = parsePaymentForm(recipient, amount)
  const { status } = payment
  // The recipient's balance is read when the recipient changes and when a payment settles, not at every block.
  const settled = status.step === 'included' ? status.hash : undefined
  const recipientBalance = useFollowedBalance(form.ok ? form.to : undefined, settled, props.chainId)
  const busy = status.step === 'signing'
  const { text, record } = describeSentPayment(status, blockNumber, records)
  const failed =
    status.step === 'failed' || (status.step === 'included' && status.reverted) || record?.status === 'failed'

  return (
    <Card title={t('payment_title')} description={t('payment_description')} testId="send-payment">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (!form.ok) return setInvalid(form)
          const { chainId, appChainId, balance, protocol } = props
          const refused = checkPayment({ value: form.value, balance, chainId, appChainId, protocol })
          if (refused)
            return setInvalid({ field: chainId === appChainId ? 'amount' : 'chain', message: refused })
          setInvalid(undefined)
          prompt.focus()
          void payment.send(form.to, form.value)
        }}
      >
        <label htmlFor="payment-recipient">{t('recipient')}</label>
        <input
          id="payment-recipient"
          data-testid="payment-recipient"
          className="mono"
          value={recipient}
          onChange={(event) => setRecipient(event.target.value)}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={invalid?.field === 'recipient'}
          aria-describedby={invalid ? 'payment-invalid' : undefined}
        />
        <label htmlFor="payment-amount">{t('amount')}</label>
        <input
          id="payment-amount"
          data-testid="payment-amount"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={invalid?.field === 'amount'}
          aria-describedby={invalid ? 'payment-invalid' : undefined}
        />
        {invalid ? (
          <p
            id="payment-invalid"
            className="outcome error"
            role="alert"
            data-testid="payment-invalid"
            data-field={invalid.field}
          >
            {invalid.message}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="primary" data-testid="payment-send-button" disabled={busy}>
            {busy ? prompt.waiting : t('send_payment')}
          </button>
          {busy ? <CancelButton testId="payment" onCancel={payment.cancel} /> : null}
        </div>
        <RequestLifeLine testId="payment" busy={busy} methods={['eth_sendTransaction']} />
      </form>
      {text ? (
        <p
          className={`outcome ${failed ? 'error' : ''}`}
          role={status.step === 'failed' ? 'alert' : 'status'}
          data-testid="payment-status"
          data-step={status.step}
          data-source={record ? 'server' : 'page'}
          data-confirmations={record?.confirmations}
        >
          {text}
        </p>
      ) : null}
      {'hash' in status ? (
        <p className="muted small-text">
          {t('transaction')} <code data-testid="payment-hash">{status.hash}</code>
        </p>
      ) : null}
      <RecordLine
        signedIn={signedIn}
        record={'hash' in status && lastRecord?.hash === status.hash ? lastRecord : undefined}
      />
      {form.ok ? (
        <p className="muted small-text">
          {t('recipient_balance')}{' '}
          <span data-testid="payment-recipient-balance" data-wei={recipientBalance?.toString()}>
            {recipientBalance === undefined ? '…' : formatBalance(recipientBalance)}
          </span>
        </p>
      ) : null}
    </Card>
  )
}
