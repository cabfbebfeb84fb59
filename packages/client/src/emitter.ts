/** A listener of one event: it gets one typed payload. */
export type Listener<payload> = (payload: payload) => void

/** A minimal typed event emitter: `on` returns the unsubscribe function. */
export type Emitter<events extends Record<string, unknown>> = {
  on<name extends keyof events>(event: name, listener: Listener<events[name]>): () => void
  once<name extends keyof events>(event: name, listener: Listener<events[name]>): () => void
  off<name extends keyof events>(event: name, listener: Listener<events[name]>): void
  emit<name extends keyof events>(event: name, payload: events[name]): void
  /** How many listeners `event` has (a wallet answers some requests differently when the app listens for them). */
  listenerCount(event: keyof events): number
}

/** Creates an {@link Emitter}. A throwing listener is reported and does not stop the others. */
export function createEmitter<events extends Record<string, unknown>>(): Emitter<events> {
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
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          ;(listener as Listener<events[typeof event]>)(payload)
        } catch (error) {
          // An app's listener bug must not break the session's own bookkeeping, nor hide from the developer.
          console.error(error)
        }
      }
    },
  }
  return emitter
}
