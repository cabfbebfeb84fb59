import { getUriVersion } from '@pairlink/protocol/v2'
import type { FormEvent } from 'react'
import { fill } from '../../i18n/fill.js'
import { t } from '../../i18n/i18n.js'
import { ProtocolVersion } from '../ProtocolVersion/ProtocolVersion.js'

/** Props of {@link PairForm}. */
export type PairFormProps = {
  /** The pasted text, kept by the caller so a link that cannot pair (or timed out) stays to be fixed. */
  value: string
  onChange(value: string): void
  onPair(uri: string): void
  /** @default false */
  disabled?: boolean
}

/** The box where a `wc:` URI is pasted. */
export function PairForm({ value, onChange, onPair, disabled = false }: PairFormProps) {
  // Told as soon as it is pasted: which protocol the link speaks (v2's names no bridge; v1's does).
  const version = getUriVersion(value.trim())
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onPair(value)
  }
  return (
    <section className="card" aria-labelledby="pair-heading">
      <h2 id="pair-heading">{t('pair_title')}</h2>
      <form onSubmit={submit}>
        <label className="field">
          <span>{t('pair_uri')}</span>
          <textarea
            data-testid="uri-input"
            rows={3}
            spellCheck={false}
            placeholder="wc:…@2?relay-protocol=irn&symKey=… or wc:…@1?bridge=…&key=…"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
        {(version === 1 || version === 2) && (
          <p className="small">{fill(t('pair_link'), { version: <ProtocolVersion version={version} /> })}</p>
        )}
        <button
          type="submit"
          className="primary"
          data-testid="pair-button"
          disabled={disabled || !value.trim()}
        >
          {t('pair_button')}
        </button>
      </form>
      <p className="muted small">{t('pair_hint')}</p>
    </section>
  )
}
