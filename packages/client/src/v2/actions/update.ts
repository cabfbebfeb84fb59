import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SIGN_ERRORS, SignError } from '../errors.js'
import { getInternal, getSessionOrThrow, save, sendRequest } from '../internal.js'
import { isSessionNamespaces } from '../namespaces.js'
import type { SessionNamespace } from '../types.js'

/** Parameters of {@link update}. */
export type UpdateParameters = {
  topic: string
  /** The session's namespaces from now on (add a chain, an account, a method…). */
  namespaces: Record<string, SessionNamespace>
}

/**
 * Wallet: changes the session's namespaces (`wc_sessionUpdate`) and resolves once the dapp acknowledged them. Only
 * the controller (the wallet that approved) may; the local session changes at once, and back if the dapp refuses.
 *
 * @example
 * await update(client, { topic, namespaces: { eip155: { chains, accounts, methods, events } } })
 */
export async function update(client: SignClient, parameters: UpdateParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, namespaces } = parameters
  const session = getSessionOrThrow(internal, topic)
  if (session.controller !== session.self.publicKey) throw new SignError(SIGN_ERRORS.NOT_CONTROLLER)
  if (!isSessionNamespaces(namespaces)) throw new SignError(SDK_ERRORS.INVALID_UPDATE_REQUEST)
  const previous = session.namespaces
  session.namespaces = namespaces
  save(internal)
  try {
    await sendRequest(internal, topic, 'wc_sessionUpdate', { namespaces }, { timeout: 300 })
  } catch (error) {
    if (internal.state.sessions[topic] === session) {
      session.namespaces = previous
      save(internal)
    }
    throw error
  }
}
