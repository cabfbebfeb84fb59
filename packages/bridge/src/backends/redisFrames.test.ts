import { describe, expect, test } from 'vitest'
import { directHead, forEachFrame, formatDirectFrame, ownerOf, readFrame } from './redisFrames.js'

const A = 'a'.repeat(16)
const B = 'b'.repeat(16)
const C = 'c'.repeat(16)

const read = (message: Buffer) => {
  const frames: { topic: string; frame: string; head: number; owner: string }[] = []
  forEachFrame(message, (one) =>
    readFrame(one, (whole, topic, frame, bytes, head, ownerAt) => {
      expect(bytes).toBe(Buffer.byteLength(frame))
      frames.push({ topic, frame, head, owner: ownerOf(whole, ownerAt) })
    }),
  )
  return frames
}

describe('redisFrames', () => {
  test('default: a direct frame reads back whole, with its origin and the nodes it went to', () => {
    const frame = '{"topic":"tö","type":"pub","payload":"ü","silent":true}'
    const { message, bytes } = formatDirectFrame(
      A,
      [B, C],
      'tö',
      '127.0.0.1',
      frame,
      Buffer.byteLength(frame),
    )
    const buffer = Buffer.from(message)
    expect(buffer.length).toBe(bytes)
    const [one] = read(buffer)
    expect(one).toEqual({ topic: 'tö', frame, head: 1 + 16 * 3 + 1, owner: '127.0.0.1' })
    expect(directHead(buffer, one?.head as number)).toEqual({ origin: A, sentTo: B + C })
  })

  test('behavior: a frame the script published (no head) and a batch of frames', () => {
    const scripted = Buffer.from('2:tu3:own{"x":1}')
    expect(read(scripted)).toEqual([{ topic: 'tu', frame: '{"x":1}', head: 0, owner: 'own' }])
    const first = formatDirectFrame(A, [B], 't', '', 'one', 3)
    const second = formatDirectFrame(A, [B], 'u', 'o', 'twö', 4)
    const batch = Buffer.from(`b${first.bytes}:${first.message}${second.bytes}:${second.message}`)
    expect(read(batch).map(({ topic, frame, owner }) => [topic, frame, owner])).toEqual([
      ['t', 'one', ''],
      ['u', 'twö', 'o'],
    ])
  })
})
