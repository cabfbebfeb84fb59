import { useCallback, useRef, useState } from 'react'
import { describeError, type ErrorContext } from '../describeError.js'
import { t } from '../i18n/i18n.js'

/** Return type of {@link useAction}. */
export type ActionState<result> = {
  busy: boolean
  result: result | undefined
  /** The plain-language message of the last failure. */
  error: string | undefined
  run: () => Promise<void>
  /** Stops waiting: the app says so (`stopped_waiting`) and ignores the wallet's answer if it comes later. */
  cancel: () => void
  reset: () => void
}

/**
 * Runs one wallet action at a time and keeps its outcome: the result, or the failure as a plain-language message.
 *
 * @example
 * const sign = useAction(() => signMessageAsync({ account, message }))
 */
export function useAction<result>(
  action: () => Promise<result>,
  context: ErrorContext = 'request',
): ActionState<result> {
  const [state, setState] = useState<{
    busy: boolean
    result: result | undefined
    error: string | undefined
  }>({
    busy: false,
    result: undefined,
    error: undefined,
  })
  const latest = useRef(action)
  latest.current = action
  // Each run, cancel and reset takes a new number; an outcome is shown only while its run is still the last one.
  const attempt = useRef(0)
  const run = useCallback(async () => {
    const id = ++attempt.current
    setState({ busy: true, result: undefined, error: undefined })
    try {
      const result = await latest.current()
      if (id === attempt.current) setState({ busy: false, result, error: undefined })
    } catch (error) {
      if (id === attempt.current)
        setState({ busy: false, result: undefined, error: describeError(error, context) })
    }
  }, [context])
  const cancel = useCallback(() => {
    attempt.current++
    setState({ busy: false, result: undefined, error: t('stopped_waiting') })
  }, [])
  const reset = useCallback(() => {
    attempt.current++
    setState({ busy: false, result: undefined, error: undefined })
  }, [])
  return { ...state, run, cancel, reset }
}
