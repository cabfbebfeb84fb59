#!/usr/bin/env node
// Encrypt+decrypt throughput of a 1 KB JSON-RPC payload: @pairlink/protocol (WebCrypto) beside node:crypto doing
// the same work (AES-256-CBC, HMAC-SHA256 over ciphertext‖iv, constant-time MAC check, JSON) in the same run.
// Prints one JSON line. Rounds alternate between the two so machine noise hits both alike.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { decrypt, encrypt, generateKey } from '@pairlink/protocol'

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

/** Round trips done in `ms`, `inFlight` at a time (WebCrypto runs on libuv's pool; node:crypto is synchronous). */
async function measure(fn, ms, inFlight = 1) {
  let n = 0
  const end = performance.now() + ms
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++)
      await (inFlight === 1 ? fn() : Promise.all(Array.from({ length: inFlight }, fn)))
    n += 50 * inFlight
  }
  return n
}

const ROUNDS = 4
const ROUND_MS = 500
await measure(oursRoundTrip, 300)
await measure(nodeRoundTrip, 300)
let ours = 0
let base = 0
for (let r = 0; r < ROUNDS; r++) {
  ours += await measure(oursRoundTrip, ROUND_MS)
  base += await measure(nodeRoundTrip, ROUND_MS)
}
let oursConcurrent = 0
let baseConcurrent = 0
for (let r = 0; r < ROUNDS; r++) {
  oursConcurrent += await measure(oursRoundTrip, ROUND_MS, 16)
  baseConcurrent += await measure(nodeRoundTrip, ROUND_MS, 16)
}
const seconds = (ROUNDS * ROUND_MS) / 1000
const oursOps = Math.round(ours / seconds)
const baseOps = Math.round(base / seconds)
const oursConcurrentOps = Math.round(oursConcurrent / seconds)
const baseConcurrentOps = Math.round(baseConcurrent / seconds)
console.log(
  JSON.stringify({
    bench: 'crypto',
    payload_bytes: size,
    pairlink_ops_per_s: oursOps,
    node_crypto_ops_per_s: baseOps,
    ratio: Number((oursOps / baseOps).toFixed(3)),
    pairlink_concurrent_ops_per_s: oursConcurrentOps,
    node_crypto_concurrent_ops_per_s: baseConcurrentOps,
    concurrent_ratio: Number((oursConcurrentOps / baseConcurrentOps).toFixed(3)),
    node: process.version,
  }),
)
