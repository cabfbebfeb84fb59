import type { Client, ProtectedKey } from './createClient.js'
import { type Internal, setInternal } from './session.js'

/** Gives `client` its `extend`: each call makes a new object over the same state, its getters kept as getters. */
export function withExtend<extended>(client: Client<extended>, internal: Internal): Client<extended> {
  const extend = (fn: (client: Client<extended>) => object) => {
    const extension = Object.getOwnPropertyDescriptors(fn(client))
    for (const key of PROTECTED_KEYS) delete extension[key]
    const next = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(client), ...extension })
    setInternal(next, internal)
    return withExtend(next as Client, internal)
  }
  return Object.assign(client, { extend }) as Client<extended>
}

const PROTECTED_KEYS: readonly ProtectedKey[] = [
  'connected',
  'accounts',
  'chainId',
  'peerId',
  'peerMeta',
  'clientId',
  'bridge',
  'uri',
  'session',
  'transportState',
  'stats',
  'ready',
  'on',
  'once',
  'off',
  'killSession',
  'close',
  'extend',
]
