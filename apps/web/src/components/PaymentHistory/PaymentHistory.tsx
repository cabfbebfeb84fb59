import { shortenAddress } from '../../format.js'
import type { PaymentHistoryState } from '../../hooks/usePaymentHistory.js'
import { Card } from '../Card/Card.js'
import { describeRecord, formatRecordValue } from './paymentHistory.js'

/** Props of {@link PaymentHistory}. */
export type PaymentHistoryProps = { history: Pick<PaymentHistoryState, 'payments' | 'error'> }

/**
 * The signed-in account's payments as the server recorded and followed them: amount, recipient, status, block and
 * confirmations, newest first. Live while any payment is open.
 */
export function PaymentHistory({ history }: PaymentHistoryProps) {
  const { payments, error } = history
  return (
    <Card
      title="Payment history"
      description="The server follows each payment to confirmation, even after you close this tab."
      testId="payment-history"
    >
      {error ? (
        <p className="outcome error" role="alert" data-testid="payment-history-error">
          {error}
        </p>
      ) : null}
      {payments === undefined ? (
        error ? null : (
          <p className="muted" role="status">
            Loading…
          </p>
        )
      ) : payments.length === 0 ? (
        <p className="muted" data-testid="payment-history-empty">
          No payments yet. Payments you send while signed in show up here.
        </p>
      ) : (
        <ul className="history">
          {payments.map((payment) => (
            <li
              key={payment.txHash}
              data-testid="payment-history-item"
              data-hash={payment.txHash}
              data-status={payment.status}
              data-confirmations={payment.confirmations}
            >
              <div className="history-head">
                <strong data-testid="payment-history-amount">{formatRecordValue(payment.value)}</strong>
                <span className="muted">
                  to <code title={payment.to}>{shortenAddress(payment.to)}</code>
                </span>
              </div>
              <p
                className={`small-text ${payment.status === 'failed' ? 'error' : payment.status === 'confirmed' ? 'verified' : 'muted'}`}
                data-testid="payment-history-status"
              >
                {describeRecord(payment)}
              </p>
              <p className="muted small-text">
                <code title={payment.txHash}>{shortenAddress(payment.txHash)}</code> ·{' '}
                <time dateTime={payment.createdAt}>{new Date(payment.createdAt).toLocaleString()}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

/** The history's slot while signed out: says how to get a history, and keeps the page's layout as it will be. */
export function HistoryPlaceholder() {
  return (
    <Card title="Payment history" testId="payment-history-signed-out">
      <p className="muted">Sign in with Ethereum to keep a record of your payments here.</p>
    </Card>
  )
}
