import { useCallback, useRef, useState } from 'react'
import { describeError, type ErrorContext } from '../describeError.js'

/** Return type of {@link useAction}. */
export type ActionState<result> = {
  busy: boolean
  result: result | undefined
  /** The plain-language message of the last failure. */
  error: string | undefined
  run: () => Promise<void>
  reset: () => void
}

/**
 * Runs one wallet action at a time and keeps its outcome: the result, or the failure as a plain-language message.
 *
 * @example
 * const sign = useAction(() => walletClient.signMessage({ account, message }))
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
  const run = useCallback(async () => {
    setState({ busy: true, result: undefined, error: undefined })
    try {
      const result = await latest.current()
      setState({ busy: false, result, error: undefined })
    } catch (error) {
      setState({ busy: false, result: undefined, error: describeError(error, context) })
    }
  }, [context])
  const reset = useCallback(() => setState({ busy: false, result: undefined, error: undefined }), [])
  return { ...state, run, reset }
}
