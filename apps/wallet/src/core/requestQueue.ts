import type { WalletClient } from '@pairlink/client'
import type { JsonRpcRequest } from '@pairlink/protocol'
import type { RequestOutcome } from './createWallet.js'
import type { PendingRequest, PendingRequestStore } from './pendingRequests.js'

/** What a restored wallet brought back from its storage. */
export type RestoredRequests = {
  /** Unanswered requests offered again (also emitted as `call_request`), oldest first. */
  requests: JsonRpcRequest[]
  /** Requests too old to offer, and how `expire` answered each. */
  expired: { request: JsonRpcRequest; outcome: RequestOutcome }[]
}

/** Parameters of {@link createRequestQueue}. */
export type CreateRequestQueueParameters = {
  client: WalletClient
  /** Where unanswered requests are kept; `undefined`: only in memory. */
  store: PendingRequestStore | undefined
  /** A stored request older than this (ms) at restore is not offered again but handed to `expire`. */
  maxAge: number
  /** Answers a request that waited too long, and reports how. */
  expire(request: JsonRpcRequest): Promise<RequestOutcome>
}

/** The wallet's call requests between their arrival and the person's answer: see {@link createRequestQueue}. */
export type RequestQueue = {
  /** Settles once the stored requests of a restored session were offered again or expired. */
  readonly restored: Promise<RestoredRequests>
  /** Listens to requests to answer: each id once; after a restore the stored ones first, oldest first. */
  onRequest(listener: (request: JsonRpcRequest) => void): () => void
  /** Marks a request as answered, and forgets it; `false` when it was answered already. */
  settle(id: number): boolean
}

/**
 * Keeps a wallet's unanswered call requests with its session: each one is stored when it arrives and forgotten
 * when the person answers it, so a wallet closed in between offers it again when it is reopened. A session that
 * ends, or a new one, starts with none.
 *
 * @example
 * const queue = createRequestQueue({ client, store, maxAge: PENDING_REQUEST_MAX_AGE_MS, expire })
 * queue.onRequest((request) => show(request))
 */
export function createRequestQueue(parameters: CreateRequestQueueParameters): RequestQueue {
  const { client, store, maxAge, expire } = parameters
  const listeners = new Set<(request: JsonRpcRequest) => void>()
  const answered = new Set<number>()
  const pending = new Map<number, PendingRequest>()
  const save = () => store?.save(client.peerId, [...pending.values()])
  // Requests that arrive while the stored ones are read wait behind them: the person answers in the dapp's order.
  let arrivedEarly: JsonRpcRequest[] | undefined = []

  const take = (request: JsonRpcRequest, receivedAt: number) => {
    // A request comes once: the bridge may hand over again what a restore already brought back.
    if (pending.has(request.id) || answered.has(request.id)) return
    pending.set(request.id, { request, receivedAt })
    // Stored before anyone sees it: a wallet closed from here on still has it when it reopens.
    void save()
    for (const listener of [...listeners]) listener(request)
  }
  client.on('call_request', (request) => {
    if (arrivedEarly) arrivedEarly.push(request)
    else take(request, Date.now())
  })
  const clear = () => {
    pending.clear()
    void store?.save('', [])
  }
  client.on('disconnect', clear)
  client.on('connect', clear)

  async function restore(): Promise<RestoredRequests> {
    await client.ready
    const stored = store && client.connected ? await store.load(client.peerId) : []
    const now = Date.now()
    const requests: JsonRpcRequest[] = []
    const expired: RestoredRequests['expired'] = []
    for (const { request, receivedAt } of stored) {
      if (now - receivedAt <= maxAge) {
        take(request, receivedAt)
        requests.push(request)
      } else {
        answered.add(request.id)
        expired.push({ request, outcome: await expire(request) })
      }
    }
    if (expired.length > 0) await save()
    return { requests, expired }
  }

  const restored = restore().finally(() => {
    const early = arrivedEarly ?? []
    arrivedEarly = undefined
    for (const request of early) take(request, Date.now())
  })

  return {
    restored,
    onRequest(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    settle(id) {
      if (answered.has(id)) return false
      answered.add(id)
      if (pending.delete(id)) void save()
      return true
    },
  }
}
