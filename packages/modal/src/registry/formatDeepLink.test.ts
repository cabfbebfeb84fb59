import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { formatDeepLink, type Wallet } from './formatDeepLink.js'
import { saveDeepLinkChoice } from './saveDeepLinkChoice.js'

type Vector = {
  entry: Wallet | string
  uri: string
  link: string
  saved_WALLETCONNECT_DEEPLINK_CHOICE: object
}
const vectors = (
  JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../../../../shared/protocol/vectors-v1.json'), 'utf8'),
  ) as {
    deep_link_examples: Vector[]
  }
).deep_link_examples

describe('formatDeepLink', () => {
  test('default', () => {
    expect(formatDeepLink({ universalLink: 'https://rnbwapp.com', deepLink: 'rainbow:' }, 'wc:a@1')).toBe(
      'https://rnbwapp.com/wc?uri=wc%3Aa%401',
    )
  })

  test.each(vectors.filter((vector) => typeof vector.entry !== 'string'))(
    'behavior: vector $entry.name',
    ({ entry, uri, link, saved_WALLETCONNECT_DEEPLINK_CHOICE }) => {
      const wallet = entry as Wallet
      expect(formatDeepLink(wallet, uri)).toBe(link)
      expect(saveDeepLinkChoice(wallet.name, link)).toEqual(saved_WALLETCONNECT_DEEPLINK_CHOICE)
    },
  )

  test('behavior: vector android (no registry) — the raw wc: link', () => {
    const vector = vectors.find((v) => v.entry === 'android (no registry)')!
    expect(vector.link).toBe(vector.uri)
    expect(saveDeepLinkChoice('Unknown', vector.uri)).toEqual(vector.saved_WALLETCONNECT_DEEPLINK_CHOICE)
  })

  test('args: a v2 URI — the whole URI, expiryTimestamp included, encoded as one query value', () => {
    const v2 = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=${'58'.repeat(32)}`
    for (const wallet of [
      { universalLink: 'https://rnbwapp.com', deepLink: 'rainbow:' },
      { universalLink: '', deepLink: 'rainbow:' },
      { universalLink: '', deepLink: 'examplewallet://' },
    ]) {
      const link = formatDeepLink(wallet, v2)
      expect(new URL(link).searchParams.get('uri')).toBe(v2)
      expect(link).toContain('%402%3FexpiryTimestamp%3D1700000300%26relay-protocol%3Dirn%26symKey%3D')
      expect(saveDeepLinkChoice('Rainbow', link).href).toBe(link.split('?')[0])
    }
  })

  test('args: no link at all', () => {
    expect(formatDeepLink({ universalLink: '', deepLink: '' }, 'wc:a@1')).toBe('')
  })
})
