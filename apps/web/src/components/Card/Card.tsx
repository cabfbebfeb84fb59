import type { ReactNode } from 'react'
import { t } from '../../i18n/i18n.js'

/** Props of {@link Card}. */
export type CardProps = { title: string; description?: string; testId: string; children: ReactNode }

/** One panel of the page: a titled section, labelled by its heading for screen readers. */
export function Card({ title, description, testId, children }: CardProps) {
  const headingId = `${testId}-title`
  return (
    <section className="card" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      {description ? <p className="muted">{description}</p> : null}
      {children}
    </section>
  )
}

/** Props of {@link Outcome}. */
export type OutcomeProps = { testId: string; error: string | undefined }

/** The plain-language failure of an action, announced to screen readers. */
export function Outcome({ testId, error }: OutcomeProps) {
  if (!error) return null
  return (
    <p className="outcome error" role="alert" data-testid={`${testId}-error`}>
      {error}
    </p>
  )
}

/** Props of {@link CancelButton}. */
export type CancelButtonProps = { testId: string; onCancel: () => void }

/** Stops waiting for the wallet's answer; shown beside "Confirm in your wallet…" while a request is out. */
export function CancelButton({ testId, onCancel }: CancelButtonProps) {
  return (
    <button type="button" data-testid={`${testId}-cancel`} onClick={onCancel}>
      {t('cancel')}
    </button>
  )
}
