import { beforeAll, describe, expect, test } from 'vitest'
import { getDirection, LANGUAGES, resolveLanguage } from './languages.js'
import { getStrings, hasStrings, loadStrings } from './strings.js'

describe('strings', () => {
  test('behavior: only English is there before a table is loaded; a table loads once', async () => {
    expect(LANGUAGES.filter(hasStrings)).toEqual(['en'])
    expect(getStrings('ja')).toBe(getStrings('en'))
    const ja = await loadStrings('ja')
    expect(hasStrings('ja')).toBe(true)
    expect(await loadStrings('ja')).toBe(ja)
    expect(getStrings('ja').title).toBe('ウォレットを接続')
  })

  test('default: English is v1 byte for byte (reference §6.7)', () => {
    expect(getStrings('en')).toEqual({
      choose_preferred_wallet: 'Choose your preferred wallet',
      connect_mobile_wallet: 'Connect to Mobile Wallet',
      scan_qrcode_with_wallet: 'Scan QR code with a WalletConnect-compatible wallet',
      connect: 'Connect',
      qrcode: 'QR Code',
      mobile: 'Mobile',
      desktop: 'Desktop',
      copy_to_clipboard: 'Copy to clipboard',
      copied_to_clipboard: 'Copied to clipboard!',
      connect_with: 'Connect with',
      loading: 'Loading...',
      something_went_wrong: 'Something went wrong',
      no_supported_wallets: 'There are no supported wallets yet',
      no_wallets_found: 'No wallets found',
      retry: 'Try again',
      close: 'Close',
      search: 'Search',
      error: 'Error',
      bridge_unreachable: "Can't reach the bridge — retrying…",
      relay_unreachable: "Can't reach the relay — retrying…",
      title: 'Connect a wallet',
      expires_in: 'Expires in {time}',
      expired: 'This code has expired.',
      refreshing: 'Getting a new code…',
      installed: 'Installed in this browser',
      browser_wallet: 'Browser wallet',
      relay_refused:
        'The relay refused this site: no wallet can connect. Its operator must fix the WalletConnect settings.',
    })
  })

  describe('loaded', () => {
    beforeAll(async () => {
      await Promise.all(LANGUAGES.map(loadStrings))
    })

    test('behavior: the eight v1 languages and Japanese, each with every key filled', () => {
      expect(LANGUAGES).toEqual(['en', 'de', 'es', 'fr', 'ko', 'pt', 'zh', 'fa', 'ja'])
      const keys = Object.keys(getStrings('en'))
      for (const language of LANGUAGES) {
        const strings = getStrings(language)
        expect(Object.keys(strings)).toEqual(keys)
        for (const value of Object.values(strings)) expect(value.trim()).not.toBe('')
        expect(strings.expires_in).toContain('{time}')
      }
    })

    test('behavior: the reference texts of de, es and fr', () => {
      expect([getStrings('de').loading, getStrings('de').something_went_wrong]).toEqual([
        'Laden...',
        'Etwas ist schief gelaufen',
      ])
      expect([getStrings('es').loading, getStrings('es').something_went_wrong]).toEqual([
        'Cargando...',
        'Algo salió mal',
      ])
      expect([getStrings('fr').loading, getStrings('fr').something_went_wrong]).toEqual([
        'Chargement...',
        'Quelque chose a mal tourné',
      ])
    })

    test('behavior: the Japanese texts', () => {
      expect([getStrings('ja').scan_qrcode_with_wallet, getStrings('ja').copy_to_clipboard]).toEqual([
        'WalletConnect 対応のウォレットで QR コードをスキャンしてください',
        'クリップボードにコピー',
      ])
    })
  })

  test('args: resolveLanguage — the first tag given decides by its prefix, else en', () => {
    expect(resolveLanguage('ko', 'de-DE')).toBe('ko')
    expect(resolveLanguage(undefined, 'pt-BR')).toBe('pt')
    expect(resolveLanguage(undefined, '', 'de-CH', 'fr-FR')).toBe('de')
    expect(resolveLanguage(undefined, 'ZH')).toBe('zh')
    expect(resolveLanguage(undefined, undefined)).toBe('en')
    expect(resolveLanguage()).toBe('en')
  })

  test('behavior: resolveLanguage — an unshipped first tag gives English, not a later tag', () => {
    expect(resolveLanguage(undefined, 'it-IT', 'de-DE')).toBe('en')
    expect(resolveLanguage('xx', 'fa-IR')).toBe('en')
  })

  test('behavior: fa is right to left', () => {
    expect(LANGUAGES.filter((language) => getDirection(language) === 'rtl')).toEqual(['fa'])
  })
})
