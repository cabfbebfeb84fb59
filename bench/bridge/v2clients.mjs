// The v2 clients of bench/bridge/abuse.mjs: raw sockets speaking as the SDK does, and a bystander timing round trips
// from a thread of its own, so that the attacker's work in the bench's main thread (building and masking hundreds of
// megabytes of frames) is not counted as the relay's stall.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { relayJwt } from './lib.mjs'

const { WebSocket } = /** @type {typeof import('ws')} */ (await import('ws'))
/** @typedef {import('ws').WebSocket} WebSocket */

export const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms))
export const topic = (/** @type {number} */ n) => n.toString(16).padStart(64, 'a')
let nextId = 1_000_000_000
/** @param {string} method @param {unknown} params */
export const request = (method, params) => JSON.stringify({ id: nextId++, jsonrpc: '2.0', method, params })
export const publish = (/** @type {string} */ to, /** @type {string} */ message, extra = {}) =>
  request('irn_publish', { topic: to, message, ttl: 300, tag: 1108, ...extra })

/** A v2 socket from `localAddress`; counts its error answers by message, acks its pushes unless told not to. */
export async function client(/** @type {string} */ url, localAddress = '127.0.0.2', ack = true) {
  const ws = new WebSocket(`${url}/?auth=${relayJwt(url)}&projectId=bench`, {
    localAddress,
    perMessageDeflate: false,
    maxPayload: 1 << 30,
  })
  /** @type {Record<string, number>} */
  const refused = {}
  const state = {
    ws,
    refused,
    closedWith: /** @type {number | undefined} */ (undefined),
    onPush: (/** @type {string} */ _text) => {},
  }
  ws.on('message', (data) => {
    const text = data.toString()
    if (text.includes('"method":"irn_subscription"')) {
      if (ack) ws.send(`{"id":${text.slice(6, text.indexOf(','))},"jsonrpc":"2.0","result":true}`)
      state.onPush(text)
    } else if (text.includes('"error"')) {
      const reason = /"message":"([^"]*)"/.exec(text)?.[1] ?? 'error'
      refused[reason] = (refused[reason] ?? 0) + 1
    }
  })
  ws.on('close', (code) => {
    state.closedWith = code
  })
  ws.on('error', () => {})
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  return state
}

/** A bystander: publishes on one socket, times the push on its other, every 20 ms, until stopped. */
async function bystander(/** @type {string} */ url) {
  const [a, b] = [await client(url, '127.0.0.9'), await client(url, '127.0.0.9')]
  const mine = topic(0xbeef)
  b.ws.send(request('irn_subscribe', { topic: mine }))
  await sleep(100)
  /** @type {number[]} */
  let samples = []
  let sentAt = 0
  b.onPush = () => {
    samples.push(performance.now() - sentAt)
    sentAt = 0
  }
  setInterval(() => {
    if (sentAt !== 0) return
    sentAt = performance.now()
    a.ws.send(publish(mine, `t${sentAt}`))
  }, 20)
  return {
    /** The round trips since the last call, ms (one still waiting counts with its wait so far). */
    take() {
      const taken = sentAt === 0 ? samples : [...samples, performance.now() - sentAt]
      samples = []
      return taken
    },
  }
}

/**
 * Starts {@link bystander} in a worker thread. `take()` answers its round trips since the last call; `stop()` ends it.
 * @param {string} url
 */
export async function startBystander(url) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { bystander: url } })
  /** @type {((samples: number[]) => void)[]} */
  const waiting = []
  worker.on('message', (/** @type {number[] | 'ready'} */ message) => {
    if (message !== 'ready') waiting.shift()?.(message)
  })
  await new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    /** @returns {Promise<number[]>} */
    take() {
      worker.postMessage('take')
      return new Promise((resolve) => waiting.push(resolve))
    },
    stop: () => worker.terminate(),
  }
}

if (!isMainThread && workerData?.bystander) {
  const watcher = await bystander(workerData.bystander)
  parentPort?.on('message', () => parentPort?.postMessage(watcher.take()))
  parentPort?.postMessage('ready')
}
