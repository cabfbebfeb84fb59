/** Event names mapped to their listener's argument. */
export type EventMap = Record<string, unknown>

/** Return type of {@link createEmitter}. */
export type Emitter<events extends EventMap> = {
  /** Adds a listener (once per function, as a `Set`). */
  on<event extends keyof events>(event: event, listener: (payload: events[event]) => void): void
  /** Removes a listener. */
  off<event extends keyof events>(event: event, listener: (payload: events[event]) => void): void
  /** Calls every listener of the event with the payload. */
  emit<event extends keyof events>(event: event, payload: events[event]): void
  /** How many listeners the event has. */
  count(event: keyof events): number
}

/**
 * A minimal typed event emitter, enough for EIP-1193's `on`/`removeListener` (no Node `events` in browsers).
 * A listener that throws does not stop the others: its error is rethrown on its own task, where the host
 * reports it as it does for any event handler.
 *
 * @example
 * const emitter = createEmitter<{ chainChanged: string }>()
 * emitter.on('chainChanged', (chainId) => console.log(chainId))
 */
export function createEmitter<events extends EventMap>(): Emitter<events> {
  const listeners = new Map<keyof events, Set<(payload: never) => void>>()
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event, payload) {
      // A copy: a listener may remove itself (or others) while we iterate.
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          ;(listener as (payload: unknown) => void)(payload)
        } catch (error) {
          setTimeout(() => {
            throw error
          })
        }
      }
    },
    count(event) {
      return listeners.get(event)?.size ?? 0
    },
  }
}
