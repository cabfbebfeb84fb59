import { EXPIRY_MARGIN_MS } from '../constants.js'
import { h } from '../h.js'
import { formatMessage } from '../locales/languages.js'
import type { Strings } from '../locales/strings.js'

/**
 * Whether the code shown can still be scanned: `'live'` (also for v1 URIs, which do not expire), `'refreshing'`
 * (it ran out and the opener's `onExpired` is getting a new one), `'expired'` (it ran out, no new one is coming).
 */
export type CodeState = 'live' | 'refreshing' | 'expired'

/** Parameters of {@link createCountdown}. */
export type CreateCountdownParameters = {
  strings: Strings
  /** Told each time the code's state changes, so the modal covers the QR code and disables the links. */
  onState: (state: CodeState) => void
}

/** The countdown line under the modal's views. */
export type Countdown = {
  element: HTMLElement
  /**
   * Counts down to `expiresAt` (milliseconds since the epoch) less {@link EXPIRY_MARGIN_MS}; `undefined` hides the
   * line (v1 URIs). `onExpired` is called once when the count reaches zero, and again when the person asks.
   */
  start: (expiresAt: number | undefined, onExpired: (() => unknown) | undefined) => void
  /** Stops the clock for good: no later tick, announcement or `onExpired`. */
  dispose: () => void
}

/**
 * The countdown to a pairing's expiry: `Expires in 4:39`, updated each second (`role="timer"`, which screen readers
 * do not announce), and a live region that speaks only at the steps that matter — one minute left, expired, a new
 * code. At zero the code is `'refreshing'` when the opener gave `onExpired` (the line says `Getting a new code…`),
 * else `'expired'`. A code that arrives already expired, or an `onExpired` that throws or rejects, leaves it
 * `'expired'` with a `Try again` button when there is an `onExpired` to call: only a code seen alive refreshes by
 * itself, so an opener that answers with a dead URI cannot loop. The clock is `Date.now`; a tab in the background
 * has its timers throttled, and they fire as soon as it shows again.
 *
 * @example
 * const countdown = createCountdown({ strings, onState: (state) => cover(state !== 'live') })
 * countdown.start(readExpiry(uri), () => client.refreshPairing())
 */
export function createCountdown({ strings, onState }: CreateCountdownParameters): Countdown {
  let deadline = 0
  let refresh: (() => unknown) | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let state: CodeState = 'live'
  // Which code a late answer of `onExpired` belongs to; bumped by each start() and by dispose().
  let run = 0
  let counted = false
  let warned = false

  const line = h('p', { role: 'timer' })
  const button = h(
    'button',
    { type: 'button', class: 'button', 'data-key': 'refresh', onclick: () => ask() },
    strings.retry,
  )
  // Present from the start (empty), so that screen readers announce what is later written into it.
  const announcer = h('p', { class: 'sr', role: 'status' })
  const element = h('div', { class: 'expiry', id: 'expiry', hidden: true }, line, announcer)

  const show = (next: CodeState, text: string, announce?: boolean) => {
    line.textContent = text
    if (announce) announcer.textContent = text
    // In the DOM only while it can be used: a hidden button would still be in the focus trap's list.
    if (next === 'expired' && refresh) line.after(button)
    else button.remove()
    if (next === state) return
    state = next
    onState(next)
  }

  const tick = (announce?: boolean) => {
    const left = deadline - Date.now()
    if (left <= 0) return counted && refresh ? ask() : show('expired', strings.expired, true)
    counted = true
    const seconds = Math.ceil(left / 1000)
    // One announcement at the last minute, not one a second.
    const warn = !warned && seconds <= 60
    warned ||= warn
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
    show('live', formatMessage(strings.expires_in, { time }), announce || warn)
    // Wake when the shown second changes: the remainder to the next whole second of `left`.
    timer = setTimeout(tick, left % 1000 || 1000)
  }

  const ask = () => {
    const onExpired = refresh
    const mine = run
    const fail = () => mine === run && show('expired', strings.expired, true)
    if (!onExpired) return
    show('refreshing', `${strings.expired} ${strings.refreshing}`, true)
    try {
      Promise.resolve(onExpired()).catch(fail)
    } catch {
      fail()
    }
  }

  return {
    element,
    start: (expiresAt, onExpired) => {
      run++
      refresh = onExpired
      clearTimeout(timer)
      // A fresh code after an expired one is news to a screen reader user who heard "expired".
      const fresh = state !== 'live'
      show('live', '')
      element.hidden = expiresAt === undefined
      if (expiresAt === undefined) return
      deadline = expiresAt - EXPIRY_MARGIN_MS
      counted = false
      warned = deadline - Date.now() <= 60_000
      tick(fresh)
    },
    dispose: () => {
      run++
      refresh = undefined
      clearTimeout(timer)
    },
  }
}
