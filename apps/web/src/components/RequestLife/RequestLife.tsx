import { useRequestLife, useSecondsLeft } from '../../hooks/useRequestLife.js'

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
 * What the dapp knows of each step, in plain words (docs/request-lifecycle.md). Never "the wallet received it": no
 * protocol tells the dapp that.
 */
export const REQUEST_LIFE_TEXT = {
  sent: {
    1: 'Sent to the bridge. Waiting for your wallet’s answer.',
    2: 'Sent. Waiting for the relay to confirm it has your request…',
  },
  relayed: 'The relay has your request. Waiting for your wallet’s answer.',
  // An answer is the card's own to show (its result or its error).
  answered: '',
  expired: 'Expired: your wallet did not answer in time. You can try again.',
  failed: '',
} as const

/** `Expires in 4:59`: the time the wallet has left, minutes and seconds. */
export function formatTimeLeft(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return `Expires in ${minutes}:${String(seconds % 60).padStart(2, '0')}`
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
  const text =
    shown === undefined
      ? ''
      : shown === 'sent'
        ? REQUEST_LIFE_TEXT.sent[life?.protocol ?? 1]
        : REQUEST_LIFE_TEXT[shown]
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
