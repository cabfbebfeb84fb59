import { describe, expect, test } from 'vitest'
import {
  createTranslator,
  formatMessage,
  getDirection,
  LANGUAGES,
  matchLanguage,
  resolveLanguage,
  toLanguage,
} from './languages.js'

describe('languages', () => {
  test('default: English first, then the modal’s v1 languages and Japanese', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'es', 'fr', 'ko', 'pt', 'zh', 'fa', 'ja'])
    expect(LANGUAGES.map(getDirection)).toEqual([
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'rtl',
      'ltr',
    ])
  })

  test('args: toLanguage — by the part before the region; case and `_` do not matter', () => {
    expect(
      ['de-DE', 'es-419', 'pt-BR', 'pt-PT', 'ja-JP', 'ko-KR', 'fa-IR', 'fr-CA', 'EN_gb'].map(toLanguage),
    ).toEqual(['de', 'es', 'pt', 'pt', 'ja', 'ko', 'fa', 'fr', 'en'])
    expect([toLanguage('it-IT'), toLanguage(''), toLanguage(undefined), toLanguage('x')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  test('behavior: toLanguage — zh is simplified: zh-CN, zh-SG and zh-Hans match, traditional tags do not', () => {
    expect(['zh', 'zh-CN', 'zh-SG', 'zh-Hans', 'zh-Hans-CN'].map(toLanguage)).toEqual([
      'zh',
      'zh',
      'zh',
      'zh',
      'zh',
    ])
    expect(['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW', 'zh_TW'].map(toLanguage)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  test('behavior: matchLanguage — the first shipped tag in the browser’s order, else English', () => {
    expect(matchLanguage(['de-DE', 'en-US'])).toBe('de')
    expect(matchLanguage(['it-IT', 'es-ES', 'de'])).toBe('es')
    expect(matchLanguage(['zh-TW', 'ja-JP', 'zh-CN'])).toBe('ja')
    expect(matchLanguage(['zh-TW', 'zh-HK'])).toBe('en')
    expect(matchLanguage(['it', 'nl'])).toBe('en')
    expect(matchLanguage([])).toBe('en')
    expect(matchLanguage(undefined)).toBe('en')
  })

  test('behavior: resolveLanguage — the first tag given decides, even when unshipped', () => {
    expect(resolveLanguage(undefined, 'ja', 'de')).toBe('ja')
    expect(resolveLanguage(undefined, 'it', 'de')).toBe('en')
    expect(resolveLanguage(undefined, 'zh-TW', 'de')).toBe('en')
  })

  test('args: formatMessage — fills {placeholders}, leaves unknown ones', () => {
    expect(formatMessage('Expires in {time}', { time: '4:59' })).toBe('Expires in 4:59')
    expect(formatMessage('{a} and {a}, {b}', { a: 1, b: 2n })).toBe('1 and 1, 2')
    expect(formatMessage('{missing} stays', {})).toBe('{missing} stays')
    expect(formatMessage('no values {x}')).toBe('no values {x}')
  })
})

describe('createTranslator', () => {
  const en = { hello: 'Hello, {name}!', bye: 'Bye' }
  const table = (hello: string) => async () => ({ hello, bye: `${hello}…` })
  const loaders = {
    de: table('Hallo, {name}!'),
    es: table('¡Hola, {name}!'),
    fa: table('سلام {name}!'),
    fr: table('Bonjour, {name} !'),
    ja: table('こんにちは、{name}さん！'),
    ko: table('안녕하세요, {name}님!'),
    pt: table('Olá, {name}!'),
    zh: async () => {
      throw new TypeError('Failed to fetch')
    },
  }

  test('default: English until another table is in use', async () => {
    const i18n = createTranslator(en, loaders)
    expect([i18n.language, i18n.t('hello', { name: 'Ada' })]).toEqual(['en', 'Hello, Ada!'])
    expect(await i18n.use('ja')).toBe('ja')
    expect(i18n.t('hello', { name: 'Ada' })).toBe('こんにちは、Adaさん！')
    expect(await i18n.use('en')).toBe('en')
    expect(i18n.t('bye')).toBe('Bye')
  })

  test('error: a table that cannot be fetched leaves the language as it was', async () => {
    const i18n = createTranslator(en, loaders)
    await i18n.use('de')
    expect(await i18n.use('zh')).toBe('de')
    expect(i18n.t('hello', { name: 'Ada' })).toBe('Hallo, Ada!')
  })
})
