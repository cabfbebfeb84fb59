import { getUriVersion } from '@pairlink/protocol/v2'
import type { FormEvent } from 'react'
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
      <h2 id="pair-heading">Connect to a dapp</h2>
      <form onSubmit={submit}>
        <label className="field">
          <span>WalletConnect URI</span>
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
          <p className="small">
            <ProtocolVersion version={version} /> link
          </p>
        )}
        <button
          type="submit"
          className="primary"
          data-testid="pair-button"
          disabled={disabled || !value.trim()}
        >
          Connect
        </button>
      </form>
      <p className="muted small">
        Paste the link the dapp shows under its QR code (WalletConnect v1 or v2), or open it as
        /wallet/wc?uri=….
      </p>
    </section>
  )
}
