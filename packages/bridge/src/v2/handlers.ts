import { BATCH_LIMIT, checkPublish, checkTopic, checkTopics, object, ParamsError } from './params.js'
import { type PubSub, subscriptionId } from './pubsub.js'
import { type Conn, isPromise, type Outcome, type RelayContext, TRUE } from './relayContext.js'
import type { StoredMessage } from './store.js'

/**
 * One JSON-RPC method: checks its params (throwing `ParamsError` or `LimitError`), then acts. `frame` is the request's
 * text, as it came.
 */
export type Handler = (conn: Conn, params: unknown, frame: string) => Outcome | Promise<Outcome>

const answerAfter = (done: Promise<unknown> | undefined): Outcome | Promise<Outcome> =>
  done ? done.then(() => TRUE) : TRUE

/** The relay's `irn_*` and `wc_*` methods by name (`docs/relay-v2.md`). */
export function createHandlers(ctx: RelayContext, pubsub: PubSub): Record<string, Handler> {
  const { store, subscribers } = ctx
  const { maxAnswerBytes } = ctx.limits
  const { subscribe, unsubscribe, subscribeAll, publish, publishAll } = pubsub

  return {
    irn_subscribe(conn, params) {
      const topic = checkTopic(object(params).topic)
      return subscribeAll(conn, [topic], subscriptionId(topic, conn.clientId))
    },
    irn_batchSubscribe(conn, params) {
      const topics = checkTopics(object(params).topics)
      return subscribeAll(
        conn,
        topics,
        topics.map((topic) => subscriptionId(topic, conn.clientId)),
      )
    },
    irn_unsubscribe(conn, params) {
      unsubscribe(conn, checkTopic(object(params).topic))
      return TRUE
    },
    irn_batchUnsubscribe(conn, params) {
      const list = object(params).subscriptions
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('subscriptions must be an array')
      const topics = new Set(list.map((entry) => checkTopic(object(entry).topic)))
      for (const topic of topics) unsubscribe(conn, topic)
      return TRUE
    },
    irn_publish(conn, params, frame) {
      const checked = checkPublish(params, ctx, subscribers)
      // A frame without a backslash has no escapes: the message is its own JSON string, its characters as they came
      // (valid JSON holds no raw quote or control character), so the push need not JSON.stringify it again.
      return publish(conn, checked, frame.includes('\\') ? undefined : `"${checked.message}"`) ?? TRUE
    },
    irn_batchPublish(conn, params) {
      const list = object(params).messages
      if (!Array.isArray(list) || list.length > BATCH_LIMIT)
        throw new ParamsError('messages must be an array')
      const checked = list.map((entry) => checkPublish(entry, ctx))
      return answerAfter(publishAll(conn, checked))
    },
    irn_batchFetchMessages(conn, params) {
      const topics = checkTopics(object(params).topics)
      const now = Date.now()
      const kept = topics.map((topic) => store.pending(topic, conn.clientId, now))
      // At most BATCH_LIMIT messages and maxAnswerBytes of them (always one): the client fetches the rest, which this
      // answer did not ack.
      const answer = (lists: readonly (readonly StoredMessage[])[]): Outcome => {
        const messages: Record<string, unknown>[] = []
        let hasMore = false
        let bytes = 0
        for (const message of lists.flat()) {
          bytes += message.bytes
          if (messages.length >= BATCH_LIMIT || (messages.length > 0 && bytes > maxAnswerBytes)) {
            hasMore = true
            break
          }
          store.ack(message, conn.clientId)
          messages.push({
            topic: message.topic,
            message: message.message,
            publishedAt: message.publishedAt,
            tag: message.tag,
            ...(message.attestation === undefined ? {} : { attestation: message.attestation }),
          })
        }
        return { result: { messages, hasMore } }
      }
      return kept.some(isPromise) ? Promise.all(kept).then(answer) : answer(kept as StoredMessage[][])
    },
    wc_proposeSession(conn, params) {
      const { pairingTopic, sessionProposal, ttl } = object(params)
      const proposal = checkPublish(
        { topic: pairingTopic, message: sessionProposal, ttl: ttl ?? 300, tag: 1100 },
        ctx,
      )
      const registered = subscribe(conn, proposal.topic)
      const done = publish(conn, proposal)
      return registered ? Promise.all([registered, done]).then(() => TRUE) : answerAfter(done)
    },
    wc_approveSession(conn, params) {
      const p = object(params)
      const ttl = p.ttl ?? 300
      const response = checkPublish(
        { topic: p.pairingTopic, message: p.sessionProposalResponse, ttl, tag: 1101 },
        ctx,
      )
      const settle = checkPublish(
        { topic: p.sessionTopic, message: p.sessionSettlementRequest, ttl, tag: 1102 },
        ctx,
      )
      const registered = subscribe(conn, settle.topic)
      const done = publishAll(conn, [response, settle])
      return registered ? Promise.all([registered, done]).then(() => TRUE) : answerAfter(done)
    },
  }
}
