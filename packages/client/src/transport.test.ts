import { formatSocketMessage } from '@pairlink/protocol'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { sleep, until } from '../test/utils.js'
import { createTransport, getReconnectDelay, getWebSocketUrl, type TransportState } from './transport.js'

describe('getReconnectDelay', () => {
  test('default', () => {
    // Upper half random: attempt 0 lies in [250, 500] with the defaults.
    expect(getReconnectDelay(0, {}, () => 0)).toBe(250)
    expect(getReconnectDelay(0, {}, () => 1)).toBe(500)
  })

  test('behavior: grows exponentially up to maxDelay', () => {
    const schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => getReconnectDelay(attempt, {}, () => 1))
    expect(schedule).toMatchInlineSnapshot(`
      [
        500,
        1000,
        2000,
        4000,
        8000,
        16000,
        30000,
        30000,
        30000,
        30000,
      ]
    `)
  })

  test('behavior: jitter spreads clients over the upper half', () => {
    const delays = [0, 0.25, 0.5, 0.75, 1].map((r) =>
      getReconnectDelay(3, { minDelay: 100, maxDelay: 10_000 }, () => r),
    )
    expect(delays).toEqual([400, 500, 600, 700, 800])
  })

  test('args: minDelay, maxDelay', () => {
    expect(getReconnectDelay(10, { minDelay: 10, maxDelay: 50 }, () => 1)).toBe(50)
    expect(getReconnectDelay(1, { minDelay: 10, maxDelay: 50 }, () => 0)).toBe(10)
  })
})

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

  test('default: queued frames first, then the subscriptions (v1 order)', async () => {
    const url = getWebSocketUrl(bridge.url)
    const before = relay.frames.length
    const transport = createTransport({ url, WebSocket, subscriptions: () => ['own'], onMessage: () => {} })
    transport.send(pub('peer-1'))
    transport.send(pub('peer-2'))
    await until(() => relay.frames.length >= before + 3)
    expect(relay.frames.slice(before).map((f) => JSON.parse(f.raw))).toEqual([
      pub('peer-1'),
      pub('peer-2'),
      { topic: 'own', type: 'sub', payload: '', silent: true },
    ])
    expect(relay.paths.at(-1)).toBe('/?env=node&protocol=wc&version=1')
    transport.close()
  })

  test('behavior: delivers frames, counts malformed ones', async () => {
    const url = getWebSocketUrl(bridge.url)
    const received: string[] = []
    let malformed = 0
    const a = createTransport({
      url,
      WebSocket,
      subscriptions: () => ['a'],
      onMessage: (m) => received.push(m.topic),
      onMalformed: () => void malformed++,
    })
    const b = createTransport({ url, WebSocket, subscriptions: () => ['b'], onMessage: () => {} })
    a.open()
    b.open()
    await until(() => a.state === 'open' && b.state === 'open')
    await sleep(20)
    b.send(pub('a'))
    relay.broadcast('not json')
    relay.broadcast(JSON.stringify({ topic: 1 }))
    await until(() => received.length === 1 && malformed >= 2)
    expect(received).toEqual(['a'])
    a.close()
    b.close()
  })

  test('behavior: reconnects with backoff, resubscribes and flushes what was queued', async () => {
    const own = await startRelay()
    const url = getWebSocketUrl(own.url)
    const states: TransportState[] = []
    const received: string[] = []
    const peer = createTransport({
      url,
      WebSocket,
      subscriptions: () => ['peer'],
      onMessage: (m) => received.push(m.topic),
      reconnect: { minDelay: 20, maxDelay: 80 },
    })
    const transport = createTransport({
      url,
      WebSocket,
      subscriptions: () => ['own'],
      onMessage: () => {},
      onStateChange: (state) => states.push(state),
      reconnect: { minDelay: 20, maxDelay: 80 },
    })
    transport.open()
    peer.open()
    await until(() => own.frames.filter((f) => JSON.parse(f.raw).type === 'sub').length === 2)
    await own.stop()
    await until(() => transport.state === 'connecting')
    transport.send(pub('peer'))
    await sleep(150)
    await own.start()
    await until(() => received.length === 1)
    expect(transport.state).toBe('open')
    expect(transport.reconnects).toBe(1)
    expect(states).toEqual(['connecting', 'open', 'connecting', 'open'])
    const subs = own.frames
      .filter((f) => JSON.parse(f.raw).type === 'sub')
      .map((f) => JSON.parse(f.raw).topic)
    expect(subs.filter((topic) => topic === 'own')).toHaveLength(2)
    transport.close()
    peer.close()
    expect(transport.state).toBe('closed')
    await own.stop()
  })

  test('behavior: close stops reconnecting', async () => {
    const own = await startRelay()
    const transport = createTransport({
      url: getWebSocketUrl(own.url),
      WebSocket,
      subscriptions: () => [],
      onMessage: () => {},
      reconnect: { minDelay: 10 },
    })
    transport.open()
    await until(() => transport.state === 'open')
    transport.close()
    const connections = own.paths.length
    await sleep(100)
    expect(own.paths.length).toBe(connections)
    expect(transport.state).toBe('closed')
    await own.stop()
  })

  test('error: unreachable bridge keeps retrying, never throws', async () => {
    const own = await startRelay()
    await own.stop()
    const transport = createTransport({
      url: getWebSocketUrl(own.url),
      WebSocket,
      subscriptions: () => [],
      onMessage: () => {},
      reconnect: { minDelay: 10, maxDelay: 20 },
    })
    transport.send({ topic: 't', type: 'pub', payload: formatSocketMessage(pub('x')), silent: true })
    await sleep(100)
    expect(transport.state).toBe('connecting')
    await own.start()
    await until(() => transport.state === 'open')
    await until(() => own.frames.length === 1)
    transport.close()
    await own.stop()
  })
})
