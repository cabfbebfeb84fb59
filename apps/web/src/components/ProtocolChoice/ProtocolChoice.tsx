import type { AppConfig } from '../../hooks/useConfig.js'
import { type MessageKey, t } from '../../i18n/i18n.js'
import type { Protocol } from '../../protocolChoice.js'

/** Props of {@link ProtocolChoice}. */
export type ProtocolChoiceProps = {
  protocol: Protocol
  onChange: (protocol: Protocol) => void
  /** While a pairing is under way the choice is locked: the modal shows a URI of the chosen protocol. */
  disabled: boolean
  /** Whose relay v2 pairs through: it decides which wallets v2 reaches. */
  relayNetwork: AppConfig['relayNetwork']
}

/** What each generation reaches, truthfully: v2 reaches phone wallets only through WalletConnect's network. */
const HINTS = {
  walletconnect: { 2: 'reaches_any', 1: 'reaches_v1' },
  pairlink: { 2: 'reaches_pairlink', 1: 'reaches_v1' },
} as const satisfies Record<AppConfig['relayNetwork'], Record<Protocol, MessageKey>>

const OPTIONS: { protocol: Protocol; label: string }[] = [
  { protocol: 2, label: 'WalletConnect v2' },
  { protocol: 1, label: 'WalletConnect v1' },
]

/** Which WalletConnect generation the next connection uses: v2 by default, v1 for wallets that only speak it. */
export function ProtocolChoice({ protocol, onChange, disabled, relayNetwork }: ProtocolChoiceProps) {
  return (
    <fieldset className="protocol-choice" data-testid="protocol-choice" disabled={disabled}>
      <legend>{t('connect_with')}</legend>
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
          {option.label} <span className="muted">({t(HINTS[relayNetwork][option.protocol])})</span>
        </label>
      ))}
    </fieldset>
  )
}
