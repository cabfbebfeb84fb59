import { useState } from 'react'
import { t } from '../../i18n/i18n.js'

/** Props of {@link AnswerActions}. */
export type AnswerActionsProps = {
  /** Names the buttons' test ids: `reject-<name>`, `approve-<name>`. */
  name: string
  /** What Approve says while nothing is under way. */
  approveLabel: string
  /** Approve cannot be taken (the request can only be refused). */
  approveDisabled?: boolean | undefined
  onApprove: () => Promise<void> | void
  onReject: () => Promise<void> | void
}

/** Reject and Approve for a prompt; both lock while either answer is under way (`Working…`). */
export function AnswerActions({
  name,
  approveLabel,
  approveDisabled,
  onApprove,
  onReject,
}: AnswerActionsProps) {
  const [busy, setBusy] = useState(false)
  const act = async (action: () => Promise<void> | void) => {
    setBusy(true)
    try {
      await action()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="actions">
      <button
        type="button"
        className="danger"
        data-testid={`reject-${name}`}
        disabled={busy}
        onClick={() => act(onReject)}
      >
        {t('reject')}
      </button>
      <button
        type="button"
        className="primary"
        data-testid={`approve-${name}`}
        disabled={busy || approveDisabled === true}
        onClick={() => act(onApprove)}
      >
        {busy ? t('working') : approveLabel}
      </button>
    </div>
  )
}
