#!/usr/bin/env node
// Writes packages/protocol/src/v2/vectors.json: fixed inputs run through the PUBLISHED WalletConnect v2 SDK's own
// functions (@walletconnect/utils 2.25 as @walletconnect/sign-client installs it, @walletconnect/relay-auth, and the
// @noble/curves copy the SDK ships for public keys). Nothing of ours is used to make an output. `--check` regenerates
// in memory and exits 1 when the committed file differs (the SDK changed, or the file was edited by hand).
//   node packages/protocol/test/generateV2Vectors.mjs [--check]
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const out = new URL('../src/v2/vectors.json', import.meta.url)
const signClient = createRequire(import.meta.url).resolve('@walletconnect/sign-client')
const requireSdk = createRequire(signClient)
const utilsPath = requireSdk.resolve('@walletconnect/utils')
const requireUtils = createRequire(utilsPath)
const utils = requireSdk('@walletconnect/utils')
const relayAuth = requireUtils('@walletconnect/relay-auth')
const { x25519 } = requireUtils('@noble/curves/ed25519')
const version = (/** @type {string} */ path) =>
  JSON.parse(readFileSync(path.replace(/dist\/.*$/, 'package.json'), 'utf8')).version

/** 32 fixed bytes per label, so inputs look random but never change. */
const fixed = (/** @type {string} */ label, bytes = 32) =>
  createHash('sha256')
    .update(`pairlink v2 vectors: ${label}`)
    .digest('hex')
    .slice(0, bytes * 2)
const publicKey = (/** @type {string} */ privateKey) =>
  Buffer.from(x25519.getPublicKey(Buffer.from(privateKey, 'hex'))).toString('hex')

// Keys: the session key two peers derive (both directions), and its topic.
const keys = [0, 1, 2, 3].map((i) => {
  const privateKeyA = fixed(`key A ${i}`)
  const privateKeyB = fixed(`key B ${i}`)
  const publicKeyA = publicKey(privateKeyA)
  const publicKeyB = publicKey(privateKeyB)
  const symKey = utils.deriveSymKey(privateKeyA, publicKeyB)
  if (utils.deriveSymKey(privateKeyB, publicKeyA) !== symKey) throw new Error('asymmetric deriveSymKey')
  return { privateKeyA, publicKeyA, privateKeyB, publicKeyB, symKey, topic: utils.hashKey(symKey) }
})

// Topics of pairing keys (`pairing.create()`: topic = hashKey(random symKey)).
const topics = [0, 1, 2, 3].map((i) => {
  const symKey = fixed(`pairing ${i}`)
  return { symKey, topic: utils.hashKey(symKey) }
})

const messages = [
  ['empty', ''],
  [
    'wc_sessionRequest',
    JSON.stringify({
      id: 1795338265581809,
      jsonrpc: '2.0',
      method: 'wc_sessionRequest',
      params: { request: { method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] }, chainId: 'eip155:1' },
    }),
  ],
  ['unicode', JSON.stringify({ id: 1, jsonrpc: '2.0', result: 'héllo wörld ✓ 🔑' })],
  ['long', JSON.stringify({ id: 2, jsonrpc: '2.0', result: 'x'.repeat(1500) })],
]

// Envelopes: type 0 under a topic key, type 1 under the key of the sender's and the receiver's X25519 keys.
const envelopes = []
for (const [index, [name, message]] of messages.entries()) {
  const iv = fixed(`iv ${index}`, 12)
  const pair = keys[index % keys.length]
  for (const encoding of ['base64', 'base64url']) {
    const sdkEncoding = encoding === 'base64url' ? 'base64url' : undefined
    envelopes.push({
      name: `type 0, ${name}, ${encoding}`,
      type: 0,
      symKey: topics[index % topics.length].symKey,
      iv,
      encoding,
      message,
      envelope: utils.encrypt({
        symKey: topics[index % topics.length].symKey,
        message,
        iv,
        encoding: sdkEncoding,
      }),
    })
    envelopes.push({
      name: `type 1, ${name}, ${encoding}`,
      type: 1,
      symKey: pair.symKey,
      senderPublicKey: pair.publicKeyA,
      receiverPrivateKey: pair.privateKeyB,
      iv,
      encoding,
      message,
      envelope: utils.encrypt({
        type: 1,
        symKey: pair.symKey,
        senderPublicKey: pair.publicKeyA,
        message,
        iv,
        encoding: sdkEncoding,
      }),
    })
  }
}
for (const vector of envelopes) {
  const sdkEncoding = vector.encoding === 'base64url' ? 'base64url' : undefined
  if (
    utils.decrypt({ symKey: vector.symKey, encoded: vector.envelope, encoding: sdkEncoding }) !==
    vector.message
  )
    throw new Error(`SDK does not open its own envelope: ${vector.name}`)
}

// Envelopes the SDK's `decrypt` refuses; `error` is the class Pairlink throws for each.
const sample = envelopes.find(({ name }) => name === 'type 0, wc_sessionRequest, base64')
const sampleBytes = Buffer.from(sample.envelope, 'base64')
const flipped = Buffer.from(sampleBytes)
flipped[flipped.length - 1] ^= 1
const invalidEnvelopes = [
  { name: 'wrong key', symKey: topics[3].symKey, envelope: sample.envelope, error: 'DecryptionError' },
  {
    name: 'altered tag',
    symKey: sample.symKey,
    envelope: flipped.toString('base64'),
    error: 'DecryptionError',
  },
  {
    name: 'truncated sealed part',
    symKey: sample.symKey,
    envelope: sampleBytes.subarray(0, 1 + 12 + 8).toString('base64'),
    error: 'InvalidEnvelopeError',
  },
].map((vector) => {
  try {
    utils.decrypt({ symKey: vector.symKey, encoded: vector.envelope })
  } catch {
    return vector
  }
  throw new Error(`SDK opened an invalid envelope: ${vector.name}`)
})

// URIs as `pairing.create()` formats them (sign-client's `authenticate()` adds `methods`).
const uriFormat = [
  { name: 'connect()', topic: topics[0].topic, symKey: topics[0].symKey, expiryTimestamp: 1795338565 },
  { name: 'no expiry', topic: topics[1].topic, symKey: topics[1].symKey },
  {
    name: 'authenticate()',
    topic: topics[2].topic,
    symKey: topics[2].symKey,
    expiryTimestamp: 1795338565,
    methods: ['wc_sessionAuthenticate'],
  },
  {
    name: 'two methods and relay data',
    topic: topics[3].topic,
    symKey: topics[3].symKey,
    expiryTimestamp: 1795338565,
    methods: ['wc_sessionPropose', 'wc_sessionAuthenticate'],
    relay: { protocol: 'irn', data: 'opaque' },
  },
].map(({ name, relay = { protocol: 'irn' }, ...parameters }) => ({
  name,
  parameters: { ...parameters, relay },
  uri: utils.formatUri({ protocol: 'wc', version: 2, ...parameters, relay }),
}))

// URIs as `pair()` reads them: the SDK's own output, its other accepted spellings, and the parse result.
const first = uriFormat[0].uri
const uriParse = [
  ...uriFormat.map(({ name, uri }) => ({ name, uri })),
  { name: 'wc:// (Android)', uri: first.replace('wc:', 'wc://') },
  { name: 'base64-wrapped (mini-app start parameter)', uri: Buffer.from(first).toString('base64') },
  {
    name: 'parameters in another order',
    uri: `wc:${topics[0].topic}@2?symKey=${topics[0].symKey}&relay-protocol=irn`,
  },
  { name: 'unencoded comma in methods', uri: `${uriFormat[1].uri}&methods=wc_a,wc_b` },
].map(({ name, uri }) => {
  const { protocol: _protocol, ...parsed } = utils.parseUri(uri)
  return { name, uri, parsed: JSON.parse(JSON.stringify(parsed)) }
})

// Relay JWTs: relay-auth's signJWT(sub, aud, ttl, generateKeyPair(seed), iat), as the core signs one per socket.
const jwts = [
  { seed: fixed('seed 0'), aud: 'wss://relay.walletconnect.org', iat: 1795338265 },
  { seed: fixed('seed 1'), aud: 'ws://127.0.0.1:41989', iat: 1795338265 },
  { seed: fixed('seed 2'), aud: 'wss://relay.example.com/', iat: 1700000000 },
].map(({ seed, aud, iat }, i) => ({ seed, sub: fixed(`sub ${i}`), aud, iat, ttl: 86400 }))
for (const vector of jwts) {
  const keyPair = relayAuth.generateKeyPair(Buffer.from(vector.seed, 'hex'))
  vector.did = relayAuth.encodeIss(keyPair.publicKey)
  vector.token = await relayAuth.signJWT(vector.sub, vector.aud, vector.ttl, keyPair, vector.iat)
  if (!(await relayAuth.verifyJWT(vector.token))) throw new Error('relay-auth refuses its own token')
}

const sets = { keys, topics, envelopes, invalidEnvelopes, uriFormat, uriParse, jwts }
const vectors = {
  _about: `WalletConnect v2 vectors: fixed inputs through the published SDK (@walletconnect/utils ${version(utilsPath)}: deriveSymKey, hashKey, encrypt/decrypt with a fixed iv, formatUri/parseUri; @walletconnect/relay-auth ${version(requireUtils.resolve('@walletconnect/relay-auth'))}: generateKeyPair, encodeIss, signJWT; public keys from the SDK's @noble/curves x25519). Made by packages/protocol/test/generateV2Vectors.mjs; do not edit by hand. sha256 covers every set.`,
  sha256: createHash('sha256').update(JSON.stringify(sets)).digest('hex'),
  ...sets,
}
const text = `${JSON.stringify(vectors, null, 2)}\n`
const count = Object.values(sets).reduce((n, set) => n + set.length, 0)

if (process.argv.includes('--check')) {
  const committed = readFileSync(out, 'utf8')
  if (committed !== text) {
    console.error('[v2-vectors] src/v2/vectors.json differs from what the installed SDK produces')
    process.exit(1)
  }
  console.log(`[v2-vectors] ${count} vectors match the installed SDK`)
} else {
  writeFileSync(out, text)
  console.log(`[v2-vectors] wrote ${count} vectors`)
}
