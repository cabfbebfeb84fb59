import { type PendingRequest, respond, type SignClient } from '@pairlink/client/v2'
import { type Emitter, type JsonRpcRequest, PROVIDER_ERROR_CODES } from '@pairlink/protocol'
import type { RequestOutcome } from './createWallet.js'
import { findRpcError } from './errors.js'
import { parseCaipChain } from './namespaces.js'
import type { SessionWalletEvents } from './sessionWallet.js'
import { USER_REJECTED_MESSAGE } from './signRequest.js'

/** Parameters of {@link createV2Requests}. */
export type CreateV2RequestsParameters = {
  client: SignClient
  emitter: Emitter<SessionWalletEvents>
  /** The wallet's session topic: requests on another are not offered. */
  topic: () => string | undefined
  /** The wallet's chain, for a request whose chain is not eip155. */
  chainId: () => number
}

/**
 * A v2 wallet's call requests between their arrival and the person's answer: each offered once (`call_request`,
 * a v1-shaped JSON-RPC request), answered once, on its topic, and reported (`answered`).
 */
export function createV2Requests(parameters: CreateV2RequestsParameters) {
  const { client, emitter } = parameters
  /** Requests not answered yet, by id: their topic and chain; `seen`: every id offered. */
  const pending = new Map<number, { topic: string; chainId: number }>()
  const seen = new Set<number>()

  /** Takes a request to answer, once: a double click must not sign (or send) twice. */
  const take = ({ id }: JsonRpcRequest) => {
    const found = pending.get(id)
    if (!found || !pending.delete(id)) throw new Error(`Request ${id} was already answered`)
    return found
  }
  const fail = async (request: JsonRpcRequest, topic: string, error: { code: number; message: string }) => {
    const { code, message } = error
    await respond(client, { topic, response: { id: request.id, jsonrpc: '2.0', error: { code, message } } })
    const status = code === PROVIDER_ERROR_CODES.USER_REJECTED ? 'rejected' : 'failed'
    return report({ id: request.id, method: request.method, status, error: { code, message } })
  }
  const report = (outcome: RequestOutcome) => {
    emitter.emit('answered', outcome)
    return outcome
  }

  return {
    /** Offers a request of the session (as it arrives, or kept from before a reload); `undefined` if not offered. */
    offer({ id, topic, params }: PendingRequest): JsonRpcRequest | undefined {
      if (topic !== parameters.topic() || seen.has(id)) return undefined
      seen.add(id)
      pending.set(id, { topic, chainId: parseCaipChain(params.chainId) ?? parameters.chainId() })
      const { method, params: args } = params.request
      const request: JsonRpcRequest = { id, jsonrpc: '2.0', method, params: args as unknown[] }
      emitter.emit('call_request', request)
      return request
    },
    /** Answers with what `answer` gives for the request's chain; its JSON-RPC error is answered as such. */
    async approve(
      request: JsonRpcRequest,
      answer: (chainId: number) => Promise<{ status: RequestOutcome['status']; result: unknown }>,
    ): Promise<RequestOutcome> {
      const { topic, chainId } = take(request)
      let answered: Awaited<ReturnType<typeof answer>>
      try {
        answered = await answer(chainId)
      } catch (error) {
        const rpc = findRpcError(error)
        if (rpc) return fail(request, topic, rpc)
        throw error
      }
      const { status, result } = answered
      await respond(client, { topic, response: { id: request.id, jsonrpc: '2.0', result } })
      return report({ id: request.id, method: request.method, status, result })
    },
    /** Answers with 4001 `User rejected the request.`. */
    reject(request: JsonRpcRequest): Promise<RequestOutcome> {
      const { topic } = take(request)
      const error = { code: PROVIDER_ERROR_CODES.USER_REJECTED, message: USER_REJECTED_MESSAGE }
      return fail(request, topic, error)
    },
    /** Forgets the requests of an ended session. */
    clear: () => pending.clear(),
  }
}
