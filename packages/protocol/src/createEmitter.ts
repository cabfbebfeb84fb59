/** A listener of one event: it gets one typed payload. */
export type Listener<payload> = (payload: payload) => void

/** A minimal typed event emitter (no Node `events` in browsers): `on` and `once` return the unsubscribe function. */
export type Emitter<events extends Record<string, unknown>> = {
  /** Adds a listener (once per function, as a `Set`); returns the function that removes it. */
  on<name extends keyof events>(event: name, listener: Listener<events[name]>): () => void
  /** Adds a listener for the next `event` only; returns the function that removes it before then. */
  once<name extends keyof events>(event: name, listener: Listener<events[name]>): () => void
  /** Removes a listener. */
  off<name extends keyof events>(event: name, listener: Listener<events[name]>): void
  /** Calls every listener of `event` with `payload`, in the order they were added. Needs no `this`. */
  emit<name extends keyof events>(event: name, payload: events[name]): void
  /** How many listeners `event` has. */
  listenerCount(event: keyof events): number
}

/** Options of {@link createEmitter}. */
export type EmitterOptions = {
  /** Gets what a listener threw (the other listeners still run). Default: `console.error`. */
  onListenerError?: ((error: unknown) => void) | undefined
}

/**
 * Creates an {@link Emitter}. A throwing listener does not stop the others: its error goes to `onListenerError`, so
 * an app's listener bug neither breaks the caller's own bookkeeping nor hides from the developer.
 *
 * @example
 * const emitter = createEmitter<{ chainChanged: string }>()
 * const off = emitter.on('chainChanged', (chainId) => console.log(chainId))
 */
export function createEmitter<events extends Record<string, unknown>>(
  options: EmitterOptions = {},
): Emitter<events> {
  const listeners = new Map<keyof events, Set<Listener<never>>>()
  const emitter: Emitter<events> = {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener as Listener<never>))
      return () => emitter.off(event, listener)
    },
    once(event, listener) {
      const off = emitter.on(event, (payload) => {
        off()
        listener(payload)
      })
      return off
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener as Listener<never>)
    },
    emit(event, payload) {
      // A copy: a listener may remove itself (or others) while the event is delivered.
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          ;(listener as Listener<events[typeof event]>)(payload)
        } catch (error) {
          // `console.error` as it is when a listener throws (a test or an app may have replaced it since).
          ;(options.onListenerError ?? console.error)(error)
        }
      }
    },
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  }
  return emitter
}
