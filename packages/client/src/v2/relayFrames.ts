/** A message the relay pushed on a subscribed topic (`irn_subscription` `params.data`). */
export type RelayMessage = { topic: string; message: string; publishedAt: number }

/** A frame from the relay, read: a push to ack and hand on, or the answer to one of this client's calls. */
export type RelayFrame =
  | { push: true; ack: string; message: RelayMessage | undefined }
  | { push: false; id: string; result: unknown; error: { message?: unknown; code?: unknown } | undefined }

let lastMs = 0
let sequence = 0

/**
 * A JSON-RPC id as the SDK makes them for the relay, ms time then 6 digits (19 digits, relay-v2.md §3.1), unique in
 * the process: within one ms the digits count up from a random start. Built as text, never as one number: 19 digits
 * are past 2^53, where a double would round neighbouring ids to the same value.
 */
export function relayRpcId(): string {
  const now = Date.now()
  if (now > lastMs) {
    lastMs = now
    sequence = Math.floor(Math.random() * 500_000)
  } else if (++sequence >= 1_000_000) {
    lastMs++
    sequence = 0
  }
  return `${lastMs}${String(sequence).padStart(6, '0')}`
}

/**
 * Reads a text frame from the relay: `undefined` for anything that is not JSON-RPC 2.0, `null` for a request this
 * client does not serve (only `*_subscription` pushes are; relay-v2.md §3.3). A push without topic and message still
 * gets its ack (`message` undefined): the relay must not keep re-sending it.
 */
export function parseRelayFrame(data: unknown): RelayFrame | null | undefined {
  let frame: Record<string, unknown> | null | undefined
  try {
    frame = typeof data === 'string' ? JSON.parse(data) : undefined
  } catch {}
  // Only an object has `jsonrpc` (an array's, a string's, a number's or null's reads undefined).
  if (frame?.jsonrpc !== '2.0') return undefined
  if (typeof frame.method === 'string') {
    if (!frame.method.endsWith('_subscription')) return null
    // Echoed as it came, number or string: a parsed 19-digit id would lose digits.
    const ack = `{"id":${JSON.stringify(frame.id)},"jsonrpc":"2.0","result":true}`
    const data = (frame.params as { data?: Partial<RelayMessage> } | undefined)?.data
    const message =
      typeof data?.topic === 'string' && typeof data.message === 'string'
        ? {
            topic: data.topic,
            message: data.message,
            publishedAt: typeof data.publishedAt === 'number' ? data.publishedAt : Date.now(),
          }
        : undefined
    return { push: true, ack, message }
  }
  return {
    push: false,
    id: String(frame.id),
    result: frame.result,
    error: frame.error as { message?: unknown; code?: unknown } | undefined,
  }
}
