import type { RequestStatusEvent } from '@pairlink/provider'
import { createContext, useContext, useEffect, useState } from 'react'

/** Where the cards hear the provider's `requestStatus` events, and over which WalletConnect generation. */
export type RequestEvents = {
  /** Adds a listener of the provider's `requestStatus`; returns its removal. */
  watch: (listener: (event: RequestStatusEvent) => void) => () => void
  /** 1: v1's bridge, which confirms nothing; 2: v2's relay, which says it keeps the request. */
  protocol: 1 | 2
}

const RequestEventsContext = createContext<RequestEvents | undefined>(undefined)

/** Provides the session's {@link RequestEvents} to the cards (none: a browser wallet, which tells nothing). */
export const RequestEventsProvider = RequestEventsContext.Provider

/** What a card knows of its latest request: its steps so far, and over which protocol. */
export type RequestLife = {
  /** The steps heard, in order; the last is where the request stands. */
  steps: RequestStatusEvent[]
  protocol: 1 | 2
}

/**
 * The life of the latest request a card sent: from the first `sent` of one of `methods` after `busy` turned on, each
 * of its steps (kept after it ends, until the card's next run). `undefined` before the card's first request, or
 * without events (a browser wallet tells nothing).
 *
 * @example
 * const life = useRequestLife(sign.busy, ['personal_sign'])
 */
export function useRequestLife(busy: boolean, methods: readonly string[]): RequestLife | undefined {
  const events = useContext(RequestEventsContext)
  const [steps, setSteps] = useState<RequestStatusEvent[]>([])
  const key = methods.join()
  useEffect(() => {
    if (!busy || !events) return
    setSteps([])
    const wanted = key.split(',')
    let id: number | undefined
    // The last step is reported before the request settles: it comes while the card still waits.
    return events.watch((next) => {
      if (id === undefined && next.status === 'sent' && wanted.includes(next.method)) id = next.id
      if (next.id === id) setSteps((steps) => [...steps, next])
    })
  }, [busy, events, key])
  if (!events || steps.length === 0) return undefined
  return { steps, protocol: events.protocol }
}

/**
 * Seconds left until `expiresAt` (ms since the epoch), counted down once a second while `running`; `undefined`
 * without a deadline.
 */
export function useSecondsLeft(expiresAt: number | undefined, running: boolean): number | undefined {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running || expiresAt === undefined) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [expiresAt, running])
  if (expiresAt === undefined) return undefined
  return Math.max(0, Math.ceil((expiresAt - now) / 1000))
}
