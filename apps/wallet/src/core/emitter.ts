/** A minimal typed event emitter: `on` returns the unsubscribe function. */
export type Emitter<events extends Record<string, unknown>> = {
  on<name extends keyof events>(event: name, listener: (payload: events[name]) => void): () => void
  emit<name extends keyof events>(event: name, payload: events[name]): void
}

/**
 * Creates an {@link Emitter}. A throwing listener is reported and does not stop the others.
 *
 * @example
 * const emitter = createEmitter<{ ping: number }>()
 * emitter.on('ping', (n) => console.log(n))
 */
export function createEmitter<events extends Record<string, unknown>>(): Emitter<events> {
  const listeners = new Map<keyof events, Set<(payload: never) => void>>()
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
      return () => void set.delete(listener)
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          ;(listener as (payload: events[typeof event]) => void)(payload)
        } catch (error) {
          // An app's listener bug must not break the wallet's own bookkeeping, nor hide from the developer.
          console.error(error)
        }
      }
    },
  }
}
