import {
  deriveSymKey,
  deriveTopic,
  ENVELOPE_TYPE_1,
  encryptEnvelope,
  type KeyPair,
} from '@pairlink/protocol/v2'
import type { Internal } from './internal.js'

/** One-click auth's answer options (the SDK's `wc_sessionAuthenticate` res / reject / autoReject): tag, ttl. */
export const AUTH_ANSWER = { result: [1117, 3600], reject: [1118, 300], autoReject: [1119, 300] } as const

/**
 * Publishes a wallet's answer to a one-click auth request on the dapp's response topic (`sha256(requester key)`), in a
 * type 1 envelope: sealed with the key of `self` and the requester's key, `self.publicKey` written in it so the dapp
 * derives the same key.
 */
export async function publishToRequester(
  internal: Internal,
  parameters: {
    requesterPublicKey: string
    self: KeyPair
    payload: object
    options: readonly [tag: number, ttl: number]
  },
): Promise<void> {
  const { requesterPublicKey, self, payload, options } = parameters
  await internal.relay.request('irn_publish', {
    topic: deriveTopic(requesterPublicKey),
    message: encryptEnvelope({
      symKey: deriveSymKey(self.privateKey, requesterPublicKey),
      message: JSON.stringify(payload),
      type: ENVELOPE_TYPE_1,
      senderPublicKey: self.publicKey,
    }),
    tag: options[0],
    ttl: options[1],
    prompt: false,
  })
}
