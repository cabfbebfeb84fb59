import { expect, test } from 'vitest'
import { LinkFrame, parseSequenced } from './linkWire.js'
import { createNodeStreams } from './nodeStreams.js'
import { createScriptGate } from './scriptGate.js'

const A = 'a'.repeat(16)
const B = 'b'.repeat(16)
const tick = () => new Promise((resolve) => setImmediate(resolve))

// The sending side against its own seam: a fake link (frames kept), a fake Redis channel (messages kept, answered
// with `listeners`), dial and hang-up recorded.
function streams({ maxUnackedBytes = 1 << 20, listeners = 1 } = {}) {
  const wire: string[] = []
  const calls: string[] = []
  const answers = { listeners }
  const shown = (message: Buffer | string) => {
    const parsed = parseSequenced(Buffer.from(message))
    return parsed ? `${parsed.seq}:${parsed.inner.toString()}` : String(message)
  }
  const link = {
    send(frame: Buffer) {
      wire.push(
        frame[4] === LinkFrame.message
          ? `link ${shown(frame.subarray(5))}`
          : `link ${frame.toString('latin1', 4)}`,
      )
    },
  }
  let settled = 0
  const nodes = createNodeStreams({
    nodeId: A,
    publish: async (node, message) => {
      wire.push(`redis ${node === B ? 'B' : node} ${shown(message)}`)
      return answers.listeners
    },
    dial: (node) => calls.push(`dial ${node === B ? 'B' : node}`),
    hangUp: (node) => calls.push(`hang up ${node === B ? 'B' : node}`),
    maxFrameBytes: 1 << 20,
    maxUnackedBytes,
    onSettled: () => settled++,
  })
  const results: number[] = []
  const send = (message: string) =>
    nodes.send(
      B,
      message,
      message.length,
      (n) => results.push(n),
      () => results.push(-1),
    )
  return { nodes, link, wire, calls, answers, results, send, settled: () => settled }
}

test('default', async () => {
  const { nodes, link, wire, calls, results, send } = streams()
  send('before')
  nodes.up(B, link)
  send('one')
  send('two')
  await tick()
  // The link starts with a fence through Redis, so what Redis carried before is handled first.
  expect(wire).toEqual(['redis B 1:before', 'redis B 2:', 'link 3:one', 'link 4:two'])
  expect(calls).toEqual(['dial B'])
  expect(results).toEqual([1])
  nodes.acked(B, 1, 4)
  expect(results).toEqual([1, 1, 1])
})

test('behavior: messages unacked when the link goes down go through Redis with their numbers, in order', async () => {
  const { nodes, link, wire, results, send, settled } = streams()
  nodes.up(B, link)
  for (const message of ['one', 'two', 'three']) send(message)
  nodes.acked(B, 1, 2)
  await tick()
  wire.length = 0
  nodes.down(B)
  send('four')
  await tick()
  expect(wire).toEqual(['redis B 3:two', 'redis B 4:three', 'redis B 5:four'])
  expect(results).toEqual([1, 1, 1, 1])
  expect(settled()).toBeGreaterThan(0)
})

test('behavior: a message Redis delivered to nobody goes over the link when it is up', async () => {
  const { nodes, link, wire, answers, send } = streams()
  nodes.up(B, link)
  await tick()
  answers.listeners = 0
  nodes.hold(true)
  send('held')
  nodes.hold(false)
  await tick()
  expect(wire.slice(-2)).toEqual(['redis B 2:held', 'link 2:held'])
})

test('behavior: a script waits for the link messages sent before it; what is sent meanwhile goes through Redis', async () => {
  const { nodes, link, wire, send } = streams()
  const gate = createScriptGate(nodes)
  nodes.up(B, link)
  send('one')
  await tick()
  const ran: string[] = []
  const script = gate.script(
    async () => {
      ran.push('script')
      return [B]
    },
    (reached) => reached,
  )
  send('two')
  await tick()
  expect(ran).toEqual([])
  expect(wire).toEqual(['redis B 1:', 'link 2:one', 'link r', 'redis B 3:two'])
  nodes.acked(B, 1, 2)
  gate.check()
  await script
  await tick()
  // Then a fence through Redis, so later link messages are handled after what the script published.
  expect(ran).toEqual(['script'])
  expect(wire.at(-1)).toBe('redis B 4:')
  send('three')
  expect(wire.at(-1)).toBe('link 5:three')
})

test('behavior: a script waits for link messages only, not for later ones through Redis', async () => {
  const { nodes, link, wire, send } = streams()
  const gate = createScriptGate(nodes)
  nodes.up(B, link)
  send('one')
  nodes.hold(true)
  send('two')
  nodes.hold(false)
  const ran: string[] = []
  const script = gate.script(
    async () => ran.push('script'),
    () => [],
  )
  await tick()
  expect(wire.slice(-2)).toEqual(['redis B 3:two', 'link r'])
  // The node handled `one`; `two` may still be on its way through Redis: the script need not wait for it.
  nodes.acked(B, 1, 2)
  gate.check()
  await script
  expect(ran).toEqual(['script'])
})

test('error: a link too far behind is dropped; its messages go through Redis', async () => {
  const { nodes, link, wire, calls, send } = streams({ maxUnackedBytes: 10 })
  nodes.up(B, link)
  send('12345')
  send('67890')
  send('x')
  await tick()
  expect(calls).toEqual(['hang up B'])
  expect(wire).toEqual([
    'redis B 1:',
    'link 2:12345',
    'link 3:67890',
    'redis B 2:12345',
    'redis B 3:67890',
    'redis B 4:x',
  ])
})

test('error: a link that stops acking is dropped after five seconds, asked for an ack after one', async () => {
  const { nodes, link, wire, calls, send } = streams()
  nodes.up(B, link)
  send('one')
  const now = Date.now()
  nodes.sweep(now + 1_500)
  expect(wire.at(-1)).toBe('link r')
  nodes.sweep(now + 5_500)
  expect(calls).toEqual(['hang up B'])
  await tick()
  expect(wire.at(-1)).toBe('redis B 2:one')
})
