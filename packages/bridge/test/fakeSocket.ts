import type { Socket } from '../src/createBridge.js'

/** A fake of the core's own seam: records what the bridge sends and can be made to fail. */
export type FakeSocket = Socket & { sent: string[]; open: boolean; closedWith: [number, string] | undefined }

export function createFakeSocket(id: string, remoteAddress = '127.0.0.1'): FakeSocket {
  const fake: FakeSocket = {
    id,
    remoteAddress,
    sent: [],
    open: true,
    closedWith: undefined,
    send(text) {
      if (!fake.open) return false
      fake.sent.push(text)
      return true
    },
    close(code, reason) {
      fake.closedWith = [code, reason]
      fake.open = false
    },
  }
  return fake
}

export const sub = (topic: string) => JSON.stringify({ topic, type: 'sub', payload: '', silent: true })
export const ack = (topic: string) => JSON.stringify({ topic, type: 'ack', payload: '', silent: true })
export const pub = (topic: string, payload: string, silent = true) =>
  JSON.stringify({ topic, type: 'pub', payload, silent })
