import { describe, expect, test } from 'vitest'
import { createRedisPeers, idsOf } from './redisPeers.js'

const SELF = '0'.repeat(16)
const B = 'b'.repeat(16)
const C = 'c'.repeat(16)

describe('createRedisPeers', () => {
  test('default: what the script answered is trusted for a while', () => {
    const known = createRedisPeers(SELF)
    const peers = known.of('t')
    expect(known.fresh(peers, Date.now())).toBe(false)
    known.learn(peers, B + C, 1_000, peers.version, false)
    expect([...peers.nodes]).toEqual([B, C])
    expect(known.fresh(peers, 1_000 + 4_999)).toBe(true)
    expect(known.fresh(peers, 1_000 + 5_000)).toBe(false)
    expect(idsOf(B + C)).toEqual([B, C])
  })

  test('behavior: an announcement after the script was asked is not undone by its answer', () => {
    const known = createRedisPeers(SELF)
    known.subscribe('t')
    const peers = known.of('t')
    const { version } = peers
    known.announced(Buffer.from(`${C}t`))
    known.learn(peers, B, 1_000, version, false)
    expect([...peers.nodes].sort()).toEqual([B, C])
    // Its own announcement changes nothing.
    known.announced(Buffer.from(`${SELF}t`))
    expect(peers.nodes.has(SELF)).toBe(false)
  })

  test('behavior: a frame that missed a node announced lately is told', () => {
    const known = createRedisPeers(SELF)
    known.subscribe('t')
    expect(known.anyAnnounced('t')).toBe(false)
    known.announced(Buffer.from(`${C}t`))
    expect(known.anyAnnounced('t')).toBe(true)
    expect(known.missed('t', B, SELF)).toBe(true)
    expect(known.missed('t', B, SELF + C)).toBe(false)
    expect(known.missed('t', C, SELF)).toBe(false)
  })

  test('behavior: what a subscribed topic knew stays once left, without its announcements', () => {
    const known = createRedisPeers(SELF)
    known.subscribe('t')
    known.announced(Buffer.from(`${B}t`))
    known.unsubscribe('t')
    expect([...known.of('t').nodes]).toEqual([B])
    expect(known.anyAnnounced('t')).toBe(false)
    known.forgetPublished()
    expect(known.of('t').nodes.size).toBe(0)
  })
})
