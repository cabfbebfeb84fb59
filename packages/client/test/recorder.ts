import type { WebSocketConstructor, WebSocketLike } from '@pairlink/client'
import { WebSocket } from 'ws'

/** One text frame at the client's socket seam; `socket` numbers the sockets in the order they were made. */
type RecordedFrame = { socket: number; raw: string }

/** A `WebSocket` constructor for clients under test that logs their frames, and the logs. */
export type Recorder = {
  /** Pass as the client's `WebSocket` option. */
  WebSocket: WebSocketConstructor
  /** Every frame the clients sent, in order. */
  sent: RecordedFrame[]
  /** Every frame the clients received from the bridge, in order. */
  received: RecordedFrame[]
  /** The URL of every socket opened. */
  urls: string[]
  /** Delivers a raw frame to every open socket as if the bridge sent it (garbage the real bridge never relays). */
  inject(raw: string): void
}

/**
 * Records what clients send and receive at their own seam, the `WebSocket` constructor they are given: a real `ws`
 * socket to the real bridge underneath, only observed (and, for malformed input, fed).
 */
export function createRecorder(): Recorder {
  const sent: RecordedFrame[] = []
  const received: RecordedFrame[] = []
  const urls: string[] = []
  const open = new Set<Recorded>()
  let count = 0

  class Recorded implements WebSocketLike {
    readonly #ws: WebSocket
    readonly #socket = ++count
    onopen: WebSocketLike['onopen'] = null
    onclose: WebSocketLike['onclose'] = null
    onerror: WebSocketLike['onerror'] = null
    onmessage: WebSocketLike['onmessage'] = null

    constructor(url: string) {
      urls.push(url)
      this.#ws = new WebSocket(url)
      this.#ws.onopen = (event) => {
        open.add(this)
        this.onopen?.(event)
      }
      this.#ws.onclose = (event) => {
        open.delete(this)
        this.onclose?.(event)
      }
      this.#ws.onerror = (event) => this.onerror?.(event)
      this.#ws.onmessage = (event) => {
        received.push({ socket: this.#socket, raw: String(event.data) })
        this.onmessage?.(event)
      }
    }

    get readyState() {
      return this.#ws.readyState
    }

    send(data: string) {
      sent.push({ socket: this.#socket, raw: data })
      this.#ws.send(data)
    }

    close(code?: number, reason?: string) {
      open.delete(this)
      this.#ws.close(code, reason)
    }

    inject(raw: string) {
      this.onmessage?.({ data: raw })
    }
  }

  return {
    WebSocket: Recorded,
    sent,
    received,
    urls,
    inject(raw) {
      for (const socket of open) socket.inject(raw)
    },
  }
}
