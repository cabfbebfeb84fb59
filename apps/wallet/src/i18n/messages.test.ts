import { LANGUAGES } from '@pairlink/modal/languages'
import { describe, expect, test } from 'vitest'
import { de } from './de.js'
import { en } from './en.js'
import { es } from './es.js'
import { fa } from './fa.js'
import { fr } from './fr.js'
import { ja } from './ja.js'
import { ko } from './ko.js'
import { pt } from './pt.js'
import { zh } from './zh.js'

const TABLES = { en, de, es, fr, ko, pt, zh, fa, ja }
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe('the wallet page’s message tables', () => {
  test('default: one table per language Pairlink ships', () => {
    expect(Object.keys(TABLES).sort()).toEqual([...LANGUAGES].sort())
  })

  test.each(Object.entries(TABLES))(
    'behavior: %s has every key, filled, with the same placeholders',
    (_, table) => {
      expect(Object.keys(table)).toEqual(Object.keys(en))
      for (const [key, text] of Object.entries(table)) {
        expect(text.trim(), key).not.toBe('')
        expect(placeholders(text), key).toEqual(placeholders(en[key as keyof typeof en]))
      }
    },
  )

  test.each(Object.entries(TABLES).filter(([language]) => language !== 'en'))(
    'behavior: %s is translated, product names kept',
    (_, table) => {
      expect(table.pair_title).not.toBe(en.pair_title)
      expect(table.approve).not.toBe(en.approve)
      expect(table.pair_hint).toContain('WalletConnect')
    },
  )
})
