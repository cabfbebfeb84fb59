import { describe, expect, test } from 'vitest'
import { storedMessage } from '../../test/storedMessage.js'
import type { RelayLinks } from '../backends/backend.js'
import { entryOf, linkEntryOf } from './redisEntry.js'
import { createRelayLinkTraffic } from './redisLinks.js'
import type { StoredMessage } from './store.js'

const OTHER = 'a'.repeat(16)

const message = (id: string) => storedMessage({ id })

// The links' own seam: what is sent is recorded, what another node sends is handed to the listener.
function setUp() {
  const sent: { node: string; text: string }[] = []
  let listener: ((message: Buffer) => void) | undefined
  const links: RelayLinks = {
    nodeId: 'b'.repeat(16),
    ready: true,
    send(node, text) {
      sent.push({ node, text })
      return true
    },
    listen(handler) {
      listener = handler
    },
  }
  const delivered: { message: StoredMessage; json: string | undefined }[] = []
  const acked: [string, string][] = []
  const traffic = createRelayLinkTraffic({
    links,
    deliver: (one, json) => delivered.push({ message: one, json }),
    acked: (id, clientId) => acked.push([id, clientId]),
    gone() {},
    failed(error) {
      throw error
    },
  })
  traffic.listen()
  const receive = (...parts: string[]) => listener?.(Buffer.from(`V${parts.join('\0')}`))
  return { traffic, sent, delivered, acked, receive }
}

describe('createRelayLinkTraffic', () => {
  test('default: a message goes in the links’ own form and is read back, its JSON text as it came', () => {
    const { traffic, sent, delivered, receive } = setUp()
    traffic.send([OTHER], 0, message(`${OTHER}1`), '"AAECAwQ="')
    traffic.flush()
    expect(sent).toHaveLength(1)
    expect(sent[0]?.text.startsWith('Vn0 ')).toBe(true)
    receive(sent[0]?.text.slice(1) ?? '')
    expect(delivered).toEqual([{ message: message(`${OTHER}1`), json: '"AAECAwQ="' }])
    // Held back over there: offered to a reader that subscribes here before it is written.
    expect(traffic.unwritten(message('').topic, 'someone else').map(({ id }) => id)).toEqual([`${OTHER}1`])
  })

  test('behavior: a message in the add script’s form (nodes of the version before) is read too; unknown parts are passed over', () => {
    const { delivered, receive } = setUp()
    receive(`m0 ${entryOf(message(`${OTHER}2`))}`, 'zwhatever', `n0 ${linkEntryOf(message(`${OTHER}3`))}`)
    expect(delivered.map(({ message: one }) => one.id)).toEqual([`${OTHER}2`, `${OTHER}3`])
    expect(delivered[0]?.json).toBeUndefined()
  })

  test('behavior: a reader’s ack of a message another node holds back goes back to that node', () => {
    const { traffic, sent, acked, receive } = setUp()
    receive(`n0 ${linkEntryOf(message(`${OTHER}4`))}`)
    const held = { ...message(`${OTHER}4`) }
    expect(traffic.ack(held, 'reader')).toBe(true)
    traffic.flush()
    expect(sent).toEqual([{ node: OTHER, text: `Vk${OTHER}4 reader` }])
    expect(traffic.unwritten(held.topic, 'x')).toEqual([])
    receive(`k${OTHER}4 reader`)
    expect(acked).toEqual([[`${OTHER}4`, 'reader']])
  })
})
