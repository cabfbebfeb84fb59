import { useEffect, useState } from 'react'
import { t } from '../../i18n/i18n.js'

/** How long "Copied" stays on the button. */
const COPIED_MS = 1_500

/** Props of {@link CopyButton}. */
export type CopyButtonProps = { text: string; label: string; testId: string }

/** Copies `text` to the clipboard and says so for a moment; says so too when the browser refuses. */
export function CopyButton({ text, label, testId }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), COPIED_MS)
    return () => clearTimeout(timer)
  }, [state])
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    )
  }
  return (
    <button type="button" className="small" aria-label={label} data-testid={testId} onClick={copy}>
      <span aria-live="polite">
        {t(state === 'copied' ? 'copied' : state === 'failed' ? 'copy_failed' : 'copy')}
      </span>
    </button>
  )
}
