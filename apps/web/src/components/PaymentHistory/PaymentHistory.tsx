import { shortenAddress } from '../../format.js'
import type { PaymentHistoryState } from '../../hooks/usePaymentHistory.js'
import { fill } from '../../i18n/fill.js'
import { getLanguage, t } from '../../i18n/i18n.js'
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
    <Card title={t('history_title')} description={t('history_description')} testId="payment-history">
      {error ? (
        <p className="outcome error" role="alert" data-testid="payment-history-error">
          {error}
        </p>
      ) : null}
      {payments === undefined ? (
        error ? null : (
          <p className="muted" role="status">
            {t('loading')}
          </p>
        )
      ) : payments.length === 0 ? (
        <p className="muted" data-testid="payment-history-empty">
          {t('history_empty')}
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
                  {fill(t('history_to'), {
                    address: <code title={payment.to}>{shortenAddress(payment.to)}</code>,
                  })}
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
                <time dateTime={payment.createdAt}>
                  {new Date(payment.createdAt).toLocaleString(getLanguage())}
                </time>
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
    <Card title={t('history_title')} testId="payment-history-signed-out">
      <p className="muted">{t('history_signed_out')}</p>
    </Card>
  )
}
