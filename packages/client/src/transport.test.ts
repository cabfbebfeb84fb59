import { formatSocketMessage } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { createRecorder } from '../test/recorder.js'
import type { TransportState } from './socket.js'
import { createTransport, getWebSocketUrl } from './transport.js'

describe('getWebSocketUrl', () => {
  test('default', () => {
    // Node request path as v1 1.8.0 sends it (vectors-v1.json websocket_url_examples).
    expect(getWebSocketUrl('http://127.0.0.1:46139')).toBe(
      'ws://127.0.0.1:46139?env=node&protocol=wc&version=1',
    )
  })

  test('args: host (browser)', () => {
    expect(getWebSocketUrl('http://127.0.0.1:5001', { host: 'dapp.example:8080' })).toBe(
      'ws://127.0.0.1:5001?env=browser&host=dapp.example%3A8080&protocol=wc&version=1',
    )
  })

  test('behavior: keeps the bridge URL own query (v1 dropped it)', () => {
    expect(getWebSocketUrl('https://bridge.example.org/path?foo=bar', { host: 'dapp.example:8080' })).toBe(
      'wss://bridge.example.org/path?foo=bar&env=browser&host=dapp.example%3A8080&protocol=wc&version=1',
    )
  })

  test('behavior: ws and wss are left as they are', () => {
    expect(getWebSocketUrl('wss://b.example')).toBe('wss://b.example?env=node&protocol=wc&version=1')
  })
})

describe('createTransport', () => {
  let bridge: TestBridge
  beforeAll(async () => {
    bridge = await startBridge()
  })
  afterAll(() => bridge.stop())

  const pub = (topic: string) => ({ topic, type: 'pub' as const, payload: '{}', silent: true })
  const parsed = (frames: { raw: string }[]) => frames.map((frame) => JSON.parse(frame.raw))

  test('default: queued frames first, then the subscriptions (v1 order)', async () => {
    const url = getWebSocketUrl(bridge.url)
    const recorder = createRecorder()
    const transport = createTransport({
      url,
      WebSocket: recorder.WebSocket,
      subscriptions: () => ['own'],
      onMessage: () => {},
    })
    transport.send(pub('peer-1'))
    transport.send(pub('peer-2'))
    await waitFor(() => recorder.sent.length >= 3)
    expect(parsed(recorder.sent)).toEqual([
      pub('peer-1'),
      pub('peer-2'),
      { topic: 'own', type: 'sub', payload: '', silent: true },
    ])
    expect(recorder.urls).toEqual([`ws://127.0.0.1:${bridge.port}?env=node&protocol=wc&version=1`])
    transport.close()
  })

  test('behavior: delivers frames, counts malformed ones', async () => {
    const url = getWebSocketUrl(bridge.url)
    const received: string[] = []
    let malformed = 0
    const recorder = createRecorder()
    const a = createTransport({
      url,
      WebSocket: recorder.WebSocket,
      subscriptions: () => ['a'],
      onMessage: (m) => received.push(m.topic),
      onMalformed: () => void malformed++,
    })
    const b = createTransport({ url, WebSocket, subscriptions: () => ['b'], onMessage: () => {} })
    a.open()
    b.open()
    await waitFor(() => a.state === 'open' && b.state === 'open')
    // Through the real bridge (it holds the frame until `a` subscribed, if need be).
    b.send(pub('a'))
    // Garbage the bridge would never relay, fed at the client's own socket.
    recorder.inject('not json')
    recorder.inject(JSON.stringify({ topic: 1 }))
    await waitFor(() => received.length === 1 && malformed >= 2)
    expect(received).toEqual(['a'])
    expect(malformed).toBe(2)
    a.close()
    b.close()
  })

  test('behavior: reconnects with backoff, resubscribes and flushes what was queued', async () => {
    const own = await startBridge()
    const url = getWebSocketUrl(own.url)
    const states: TransportState[] = []
    const received: string[] = []
    const recorder = createRecorder()
    let failures = 0
    const peer = createTransport({
      url,
      WebSocket,
      subscriptions: () => ['peer'],
      onMessage: (m) => received.push(m.topic),
      reconnect: { minDelay: 20, maxDelay: 80 },
    })
    const transport = createTransport({
      url,
      WebSocket: recorder.WebSocket,
      subscriptions: () => ['own'],
      onMessage: () => {},
      onStateChange: (state) => states.push(state),
      onAttemptFailed: () => failures++,
      reconnect: { minDelay: 20, maxDelay: 80 },
    })
    transport.open()
    peer.open()
    await waitFor(() => peer.state === 'open' && recorder.sent.length === 1)
    await own.stop()
    await waitFor(() => transport.state === 'connecting')
    transport.send(pub('peer'))
    // One more attempt failed while the frame waited in the queue.
    const sockets = recorder.urls.length
    await waitFor(() => recorder.urls.length > sockets)
    await own.start()
    await waitFor(() => received.length === 1)
    expect(transport.state).toBe('open')
    expect(transport.reconnects).toBe(1)
    expect(states).toEqual(['connecting', 'open', 'connecting', 'open'])
    // Every attempt between the first socket and the last one failed; losing the open socket was not an attempt.
    expect(failures).toBeGreaterThan(0)
    expect(failures).toBe(recorder.urls.length - 2)
    expect(parsed(recorder.sent).map((frame) => [frame.type, frame.topic])).toEqual([
      ['sub', 'own'],
      ['pub', 'peer'],
      ['sub', 'own'],
    ])
    transport.close()
    peer.close()
    expect(transport.state).toBe('closed')
    await own.stop()
  })

  test('behavior: close stops reconnecting', async () => {
    const own = await startBridge()
    const closed = createRecorder()
    const control = createRecorder()
    const options = {
      subscriptions: () => [],
      onMessage: () => {},
      reconnect: { minDelay: 10, maxDelay: 10 },
    }
    const url = getWebSocketUrl(own.url)
    const transport = createTransport({ url, WebSocket: closed.WebSocket, ...options })
    const kept = createTransport({ url, WebSocket: control.WebSocket, ...options })
    transport.open()
    kept.open()
    await waitFor(() => transport.state === 'open' && kept.state === 'open')
    transport.close()
    // Marker: a bridge restart makes the open transport reconnect; by then the closed one would have tried too.
    await own.stop()
    await own.start()
    await waitFor(() => kept.state === 'open' && control.urls.length === 2)
    expect(closed.urls).toHaveLength(1)
    expect(transport.state).toBe('closed')
    kept.close()
    await own.stop()
  })

  test('error: unreachable bridge keeps retrying, never throws', async () => {
    const own = await startBridge()
    await own.stop()
    const recorder = createRecorder()
    const transport = createTransport({
      url: getWebSocketUrl(own.url),
      WebSocket: recorder.WebSocket,
      subscriptions: () => [],
      onMessage: () => {},
      reconnect: { minDelay: 10, maxDelay: 20 },
    })
    transport.send({ topic: 't', type: 'pub', payload: formatSocketMessage(pub('x')), silent: true })
    await waitFor(() => recorder.urls.length >= 3)
    expect(transport.state).toBe('connecting')
    expect(recorder.sent).toEqual([])
    await own.start()
    await waitFor(() => transport.state === 'open')
    await waitFor(() => recorder.sent.length === 1)
    transport.close()
    await own.stop()
  })
})
