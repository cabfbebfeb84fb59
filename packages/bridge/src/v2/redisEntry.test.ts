import { describe, expect, test } from 'vitest'
import { storedMessage } from '../../test/storedMessage.js'
import { entryOf, linkEntryOf, parseEntry, parseLinkEntry } from './redisEntry.js'

const message = storedMessage

describe('linkEntryOf / parseLinkEntry', () => {
  test('default: a message crosses a link whole, seq read, its JSON text as sent', () => {
    const sent = message()
    const { message: received, json } = parseLinkEntry(`0 ${linkEntryOf(sent)}`)
    expect(received).toEqual({ ...sent, seq: 0 })
    expect(json).toBe('"AAECAwQ="')
  })

  test('args: the JSON text the publish came with is carried as it is', () => {
    const { json } = parseLinkEntry(`7 ${linkEntryOf(message(), '"AAECAwQ="')}`)
    expect(json).toBe('"AAECAwQ="')
  })

  test('behavior: text a client may send (spaces, newlines, NUL, quotes, non-ASCII) and an attestation survive', () => {
    const sent = message({
      message: 'a b\nc\u0000d"e\\f ü 😀',
      attestation: 'eyJ0 eXAi\nOi"J',
      owner: '',
    })
    const text = `12 ${linkEntryOf(sent)}`
    // Parts of a link message are separated by NUL: none may hold one.
    expect(text).not.toContain('\u0000')
    const { message: received, json } = parseLinkEntry(text)
    expect(received).toEqual({ ...sent, seq: 12 })
    expect(JSON.parse(json)).toBe(sent.message)
  })

  test('error: a cut entry is refused', () => {
    const text = `0 ${linkEntryOf(message())}`
    expect(() => parseLinkEntry(text.slice(0, text.indexOf('\n')))).toThrow('malformed')
  })
})

describe('entryOf / parseEntry', () => {
  test('default: what the add script keeps reads back as the message', () => {
    const sent = message({ attestation: 'jwt' })
    expect(parseEntry(`3 ${entryOf(sent)}`)).toEqual({ ...sent, seq: 3 })
  })
})
