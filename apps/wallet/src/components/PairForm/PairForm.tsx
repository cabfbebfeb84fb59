import { type FormEvent, useState } from 'react'

/** The box where a `wc:` URI is pasted. */
export function PairForm({ onPair, disabled = false }: { onPair(uri: string): void; disabled?: boolean }) {
  const [uri, setUri] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onPair(uri)
    setUri('')
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
            placeholder="wc:…@1?bridge=…&key=…"
            value={uri}
            onChange={(e) => setUri(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="primary"
          data-testid="pair-button"
          disabled={disabled || !uri.trim()}
        >
          Connect
        </button>
      </form>
      <p className="muted small">
        Paste the link the dapp shows under its QR code, or open it as /wallet/wc?uri=….
      </p>
    </section>
  )
}
