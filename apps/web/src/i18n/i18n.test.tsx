import { afterEach, describe, expect, test } from 'vitest'
import { formatBalance } from '../format.js'
import { getLanguage, plural, setupLanguage, t } from './i18n.js'

afterEach(async () => {
  await setupLanguage(['en'])
})

describe('setupLanguage', () => {
  test('default: an unsupported browser language gives English', async () => {
    expect(await setupLanguage(['it-IT', 'nl'])).toBe('en')
    expect(t('connect_wallet')).toBe('Connect wallet')
    expect(document.documentElement.lang).toBe('en')
  })

  test('behavior: the first of navigator.languages that Pairlink ships, said on <html lang dir>', async () => {
    expect(await setupLanguage(['it-IT', 'de-DE', 'ja'])).toBe('de')
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['de', 'ltr'])
    expect(t('connect_wallet')).toBe('Wallet verbinden')
    expect(t('connected_notice', { wallet: 'MetaMask' })).toBe('Verbunden mit MetaMask.')
  })

  test('args: region tags — pt-BR is pt, zh-CN is zh, zh-TW is passed over', async () => {
    expect(await setupLanguage(['pt-BR'])).toBe('pt')
    expect(await setupLanguage(['zh-CN'])).toBe('zh')
    expect(await setupLanguage(['zh-TW', 'ko-KR'])).toBe('ko')
    expect(await setupLanguage(['zh-TW'])).toBe('en')
  })

  test('behavior: Persian is right to left', async () => {
    await setupLanguage(['fa-IR'])
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['fa', 'rtl'])
  })

  test('behavior: numbers and plurals in the chosen language', async () => {
    expect([
      plural('confirmations', 1),
      plural('confirmations', 3),
      formatBalance(12_345_600_000_000_000_000_000n),
    ]).toEqual(['1 confirmation', '3 confirmations', '12,345.6 ETH'])
    await setupLanguage(['de-DE'])
    expect(getLanguage()).toBe('de')
    expect([
      plural('confirmations', 1),
      plural('confirmations', 3),
      formatBalance(12_345_600_000_000_000_000_000n),
    ]).toEqual(['1 Bestätigung', '3 Bestätigungen', '12.345,6 ETH'])
  })
})
