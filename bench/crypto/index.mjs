#!/usr/bin/env node
// Encrypt+decrypt throughput of a 1 KB JSON-RPC payload: @pairlink/protocol (WebCrypto) beside node:crypto doing
// the same work (AES-256-CBC, HMAC-SHA256 over ciphertext‖iv, constant-time MAC check, JSON) in the same run.
// Prints one JSON line: the median of interleaved rounds (bench/measure.mjs), so machine noise hits both alike and
// the figure is the typical one. Run `node scripts/build.mjs` first (it imports the built package).
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { decrypt, encrypt, generateKey } from '@pairlink/protocol'
import { interleave } from '../measure.mjs'

const key = generateKey()
const payload = {
  id: 1656662421893123,
  jsonrpc: '2.0',
  method: 'eth_sendTransaction',
  params: [
    {
      from: `0x${'9b'.repeat(20)}`,
      to: `0x${'42'.repeat(20)}`,
      value: '0x2386f26fc10000',
      data: `0x${'ab'.repeat(420)}`,
    },
  ],
}
const size = JSON.stringify(payload).length

const rawKey = Buffer.from(key, 'hex')
async function nodeRoundTrip() {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-256-cbc', rawKey, iv)
  const data = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final()])
  const hmac = createHmac('sha256', rawKey).update(data).update(iv).digest()
  const envelope = { data: data.toString('hex'), hmac: hmac.toString('hex'), iv: iv.toString('hex') }
  const d = Buffer.from(envelope.data, 'hex')
  const i = Buffer.from(envelope.iv, 'hex')
  const mac = createHmac('sha256', rawKey).update(d).update(i).digest()
  if (!timingSafeEqual(mac, Buffer.from(envelope.hmac, 'hex'))) throw new Error('bad mac')
  const decipher = createDecipheriv('aes-256-cbc', rawKey, i)
  return JSON.parse(Buffer.concat([decipher.update(d), decipher.final()]).toString('utf8'))
}
const oursRoundTrip = async () => decrypt(await encrypt(payload, key), key)

/**
 * Round trips per second over `ms`, `inFlight` at a time (WebCrypto runs on libuv's pool; node:crypto is synchronous).
 * @param {() => Promise<unknown>} fn
 * @param {number} ms
 */
async function opsPerSecond(fn, ms, inFlight = 1) {
  let n = 0
  const start = performance.now()
  const end = start + ms
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++)
      await (inFlight === 1 ? fn() : Promise.all(Array.from({ length: inFlight }, fn)))
    n += 50 * inFlight
  }
  return n / ((performance.now() - start) / 1000)
}

const ROUNDS = 7
const ROUND_MS = 300
await opsPerSecond(oursRoundTrip, 300)
await opsPerSecond(nodeRoundTrip, 300)
const { medians } = await interleave(
  {
    ours: () => opsPerSecond(oursRoundTrip, ROUND_MS),
    node: () => opsPerSecond(nodeRoundTrip, ROUND_MS),
    oursConcurrent: () => opsPerSecond(oursRoundTrip, ROUND_MS, 16),
    nodeConcurrent: () => opsPerSecond(nodeRoundTrip, ROUND_MS, 16),
  },
  { rounds: ROUNDS },
)
console.log(
  JSON.stringify({
    bench: 'crypto',
    payload_bytes: size,
    rounds: ROUNDS,
    pairlink_ops_per_s: Math.round(medians.ours),
    node_crypto_ops_per_s: Math.round(medians.node),
    ratio: Number((medians.ours / medians.node).toFixed(3)),
    pairlink_concurrent_ops_per_s: Math.round(medians.oursConcurrent),
    node_crypto_concurrent_ops_per_s: Math.round(medians.nodeConcurrent),
    concurrent_ratio: Number((medians.oursConcurrent / medians.nodeConcurrent).toFixed(3)),
    node: process.version,
  }),
)
