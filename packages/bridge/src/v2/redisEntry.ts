// A kept message as the v2 Redis store writes it: `{expiresAt} {id} {from} {owner} {bytes}\n{data}`, data being the
// push's JSON `{topic, message, publishedAt, tag, attestation?}`; what the pending script returns, a node channel and
// a node link carry is `{seq} {entry}`.
import type { StoredMessage } from './store.js'

type Data = { topic: string; message: string; publishedAt: number; tag: number; attestation?: string }

/** The entry the add script keeps for `message` (its `id` set). */
export function entryOf(message: StoredMessage): string {
  const data: Data = {
    topic: message.topic,
    message: message.message,
    publishedAt: message.publishedAt,
    tag: message.tag,
  }
  if (message.attestation !== undefined) data.attestation = message.attestation
  return `${message.expiresAt} ${message.id} ${message.from} ${message.owner || '-'} ${message.bytes}\n${JSON.stringify(data)}`
}

/** The message of `{seq} {entry}` (seq 0: not written yet). */
export function parseEntry(text: string): StoredMessage {
  const newline = text.indexOf('\n')
  const [seq, expiresAt, id, from, owner, bytes] = text.slice(0, newline).split(' ')
  const data = JSON.parse(text.slice(newline + 1)) as Data
  return {
    topic: data.topic,
    message: data.message,
    tag: data.tag,
    publishedAt: data.publishedAt,
    expiresAt: Number(expiresAt),
    from: from ?? '',
    owner: owner ?? '',
    attestation: data.attestation,
    bytes: Number(bytes),
    // Its acks are in Redis.
    acked: undefined,
    id,
    seq: Number(seq),
  }
}
