import type { JsonRpcRequest } from '@pairlink/protocol'
import type { RequestOutcome } from '../../core/createWallet.js'
import { decodeRequest } from '../../core/decodeRequest.js'
import { INSUFFICIENT_FUNDS_MESSAGE, OTHER_CHAIN_MESSAGE } from '../../core/errors.js'
import { t } from '../../i18n/i18n.js'
import { AnswerActions } from '../AnswerActions/AnswerActions.js'
import { DecodedRequestView } from '../DecodedRequestView/DecodedRequestView.js'
import { requestTitle } from './requestTitle.js'

/** Props of {@link CallRequest}. */
export type CallRequestProps = {
  request: JsonRpcRequest
  dappName: string
  /** Requests still waiting behind this one. */
  waiting: number
  onApprove(request: JsonRpcRequest): Promise<void> | void
  onReject(request: JsonRpcRequest): Promise<void> | void
}

/** One call request, decoded, with Approve and Reject. Buttons lock while the answer is under way. */
export function CallRequest({ request, dappName, waiting, onApprove, onReject }: CallRequestProps) {
  const decoded = decodeRequest(request)
  return (
    <section
      className="card screen"
      data-testid="call-request"
      data-request-id={request.id}
      aria-labelledby="call-heading"
    >
      <h2 id="call-heading" data-testid="request-title">
        {requestTitle(decoded)}
      </h2>
      <p className="muted small">
        {t('dapp_asks', { dapp: dappName })} · <code data-testid="request-method">{request.method}</code>
        {waiting > 0 && ` · ${t('more_waiting', { count: waiting })}`}
      </p>
      <DecodedRequestView decoded={decoded} />
      <AnswerActions
        name="request"
        approveLabel={t(decoded.kind === 'transaction' && decoded.broadcast ? 'approve_send' : 'approve')}
        approveDisabled={decoded.kind === 'unsupported'}
        onApprove={() => onApprove(request)}
        onReject={() => onReject(request)}
      />
    </section>
  )
}

/** The answer to the last request: signature, transaction hash, or the error the dapp got. */
export function RequestResult({ outcome, onDone }: { outcome: RequestOutcome; onDone(): void }) {
  return (
    <section
      className="card screen"
      data-testid="request-result"
      data-status={outcome.status}
      aria-live="polite"
    >
      <h2 data-testid="result-title">{resultTitle(outcome)}</h2>
      <p className="muted small">
        <code>{outcome.method}</code>
        {outcome.status === 'failed' && t('result_failed_note')}
      </p>
      {outcome.status === 'sent' && (
        <div className="row">
          <span className="muted">{t('tx_hash')}</span>
          <span className="value hex" data-testid="tx-hash">
            {String(outcome.result)}
          </span>
        </div>
      )}
      {outcome.status === 'signed' && (
        <pre className="hex" data-testid="signature">
          {String(outcome.result)}
        </pre>
      )}
      {outcome.error && (
        <p className="error-text" data-testid="request-error">
          {t('error_code', { message: outcome.error.message, code: outcome.error.code })}
        </p>
      )}
      <button type="button" className="primary" data-testid="request-done" onClick={onDone}>
        {t('done')}
      </button>
    </section>
  )
}

/** What happened, in a few words: a failure says why, and is never called a rejection. */
function resultTitle({ status, error }: RequestOutcome): string {
  if (status !== 'failed') {
    const titles = {
      signed: 'result_signed',
      sent: 'result_sent',
      approved: 'result_approved',
      rejected: 'result_rejected',
      expired: 'result_expired',
    } as const
    return t(titles[status])
  }
  if (error?.message.startsWith(INSUFFICIENT_FUNDS_MESSAGE)) return t('result_no_funds')
  if (error?.message.startsWith(OTHER_CHAIN_MESSAGE)) return t('result_other_chain')
  return t('result_failed')
}
