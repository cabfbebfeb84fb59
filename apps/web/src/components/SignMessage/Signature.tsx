import { t } from '../../i18n/i18n.js'
import { CopyButton } from '../CopyButton/CopyButton.js'

/** Props of {@link Signature}. */
export type SignatureProps = { testId: string; signature: string; verified: boolean }

/** A signature and whether it verifies against the connected account. */
export function Signature({ testId, signature, verified }: SignatureProps) {
  return (
    <div className="outcome">
      <p
        className={verified ? 'verified' : 'error'}
        role="status"
        data-testid={`${testId}-verified`}
        data-verified={verified}
      >
        {t(verified ? 'signature_verified' : 'signature_mismatch')}
      </p>
      <div className="address-row">
        <code className="signature" data-testid={`${testId}-signature`}>
          {signature}
        </code>
        <CopyButton text={signature} label={t('copy_signature')} testId={`${testId}-copy`} />
      </div>
    </div>
  )
}
