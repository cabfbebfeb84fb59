import type { RequestStatus } from '@pairlink/provider'
import { useRequestLife, useSecondsLeft } from '../../hooks/useRequestLife.js'
import { t } from '../../i18n/i18n.js'

/** Props of {@link RequestLifeLine}. */
export type RequestLifeLineProps = {
  /** The card's test id: the line is `<testId>-life`, its countdown `<testId>-expiry`. */
  testId: string
  /** Whether the card waits for the wallet. */
  busy: boolean
  /** The wallet methods the card's request may be (`personal_sign`, …). */
  methods: readonly string[]
}

/**
 * What the dapp knows of a waiting request's step, in plain words in the page's language (docs/request-lifecycle.md):
 * empty for an answer or a failure, which are the card's own to show. Never "the wallet received it": no protocol
 * tells the dapp that.
 */
export function requestLifeText(status: RequestStatus | undefined, protocol: 1 | 2): string {
  switch (status) {
    case 'sent':
      return t(protocol === 2 ? 'life_sent_relay' : 'life_sent_bridge')
    case 'relayed':
      return t('life_relayed')
    case 'expired':
      return t('life_expired')
    default:
      return ''
  }
}

/** `Expires in 4:59`: the time the wallet has left, minutes and seconds, in the page's language. */
export function formatTimeLeft(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return t('life_expires_in', { time: `${minutes}:${String(seconds % 60).padStart(2, '0')}` })
}

/**
 * The step a card's request is at, with the time left until it expires. Always laid out (its height reserved), so
 * nothing moves when it fills in; the step is announced politely, the countdown is not.
 */
export function RequestLifeLine({ testId, busy, methods }: RequestLifeLineProps) {
  const life = useRequestLife(busy, methods)
  const last = life?.steps.at(-1)
  const status = last?.status
  const waiting = busy && (status === 'sent' || status === 'relayed')
  const seconds = useSecondsLeft(last?.expiresAt, waiting)
  // While waiting, each step; after, only an expiry (a result or an error is the card's own to show).
  const shown = waiting || status === 'expired' ? status : undefined
  const text = requestLifeText(shown, life?.protocol ?? 1)
  return (
    <div className="request-life">
      <p
        className={shown === 'expired' ? 'request-life-step expired' : 'request-life-step muted'}
        aria-live="polite"
        data-testid={`${testId}-life`}
        data-status={shown ?? ''}
        // The steps of the latest request, for tools and tests: `sent relayed answered`, and their times.
        data-steps={life?.steps.map((step) => step.status).join(' ') ?? ''}
        data-at={life?.steps.map((step) => step.at).join(' ') ?? ''}
        data-expires-at={last?.expiresAt ?? ''}
      >
        {text}
      </p>
      <p className="request-life-expiry muted" data-testid={`${testId}-expiry`}>
        {waiting && seconds !== undefined ? formatTimeLeft(seconds) : ''}
      </p>
    </div>
  )
}
