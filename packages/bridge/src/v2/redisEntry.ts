// A kept message as the v2 Redis store writes it: `{expiresAt} {id} {from} {owner} {bytes}\n{data}`, data being the
// push's JSON `{topic, message, publishedAt, tag, attestation?}`; what the pending script returns and a node channel
// carries is `{seq} {entry}`. A node link carries its own form (`linkEntryOf`), which needs no JSON object either way.
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

/**
 * A message as a node link carries it: `{expiresAt} {id} {from} {owner} {bytes} {publishedAt} {tag} {topic}\n
 * {attestation as JSON, or nothing}\n{message as JSON}`. The fields of the first line hold no space (hex, ids the
 * store checked, numbers) and JSON text no newline, so the receiver cuts it without parsing an object, and pushes the
 * message's JSON text as it came (`json`: the publish's, when the caller has it).
 */
export function linkEntryOf(message: StoredMessage, json = JSON.stringify(message.message)): string {
  const attestation = message.attestation === undefined ? '' : JSON.stringify(message.attestation)
  return `${message.expiresAt} ${message.id} ${message.from} ${message.owner || '-'} ${message.bytes} ${message.publishedAt} ${message.tag} ${message.topic}\n${attestation}\n${json}`
}

/** The message of `{seq} {link entry}` (seq 0: not written yet) and its JSON text. */
export function parseLinkEntry(text: string): { message: StoredMessage; json: string } {
  const newline = text.indexOf('\n')
  const second = text.indexOf('\n', newline + 1)
  if (second === -1) throw new Error('node link: malformed v2 message')
  const [seq, expiresAt, id, from, owner, bytes, publishedAt, tag, topic] = text.slice(0, newline).split(' ')
  const json = text.slice(second + 1)
  const message: StoredMessage = {
    topic: topic as string,
    message: JSON.parse(json) as string,
    tag: Number(tag),
    publishedAt: Number(publishedAt),
    expiresAt: Number(expiresAt),
    from: from ?? '',
    owner: owner === '-' || owner === undefined ? '' : owner,
    attestation: second > newline + 1 ? (JSON.parse(text.slice(newline + 1, second)) as string) : undefined,
    bytes: Number(bytes),
    // Its acks are in Redis, or with the node that holds it back.
    acked: undefined,
    id,
    seq: Number(seq),
    state: undefined,
  }
  return { message, json }
}
