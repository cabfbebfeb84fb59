import type { Protocol } from '../../protocolChoice.js'

/** Props of {@link ProtocolChoice}. */
export type ProtocolChoiceProps = {
  protocol: Protocol
  onChange: (protocol: Protocol) => void
  /** While a pairing is under way the choice is locked: the modal shows a URI of the chosen protocol. */
  disabled: boolean
}

const OPTIONS: { protocol: Protocol; label: string; hint: string }[] = [
  { protocol: 2, label: 'WalletConnect v2', hint: 'today’s wallets' },
  { protocol: 1, label: 'WalletConnect v1', hint: 'older wallets' },
]

/** Which WalletConnect generation the next connection uses: v2 by default, v1 for wallets that only speak it. */
export function ProtocolChoice({ protocol, onChange, disabled }: ProtocolChoiceProps) {
  return (
    <fieldset className="protocol-choice" data-testid="protocol-choice" disabled={disabled}>
      <legend>Connect with</legend>
      {OPTIONS.map((option) => (
        <label key={option.protocol}>
          <input
            type="radio"
            name="protocol"
            value={option.protocol}
            checked={protocol === option.protocol}
            onChange={() => onChange(option.protocol)}
            data-testid={`protocol-v${option.protocol}`}
          />{' '}
          {option.label} <span className="muted">({option.hint})</span>
        </label>
      ))}
    </fieldset>
  )
}
