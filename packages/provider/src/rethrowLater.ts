/**
 * Rethrows `error` on a task of its own, where the host reports it as it does for any event handler's error: what a
 * provider listener throws reaches the developer without stopping the other listeners (EIP-1193 event semantics).
 *
 * @example
 * const emitter = createEmitter<ProviderEvents>({ onListenerError: rethrowLater })
 */
export function rethrowLater(error: unknown): void {
  setTimeout(() => {
    throw error
  })
}
