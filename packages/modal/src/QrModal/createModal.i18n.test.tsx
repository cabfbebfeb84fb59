import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { modal, uri } from '../../test/fixtures.js'
import { LANGUAGES } from '../locales/languages.js'
import { getStrings, loadStrings } from '../locales/strings.js'
import { createModal } from './createModal.js'

// The tables other than English are loaded on demand (open.test.tsx covers the wait); here they are all in.
beforeAll(async () => {
  await Promise.all(LANGUAGES.map(loadStrings))
})

afterEach(() => {
  document.body.replaceChildren()
  vi.restoreAllMocks()
})

describe('createModal: languages', () => {
  test.each(LANGUAGES)('args: language %s renders its strings', (language) => {
    const strings = getStrings(language)
    createModal({ uri, platform: 'android', language })
    const m = modal()
    const root = m.root.getElementById('walletconnect-qrcode-modal')!
    expect(root.getAttribute('lang')).toBe(language)
    expect(root.getAttribute('dir')).toBe(language === 'fa' ? 'rtl' : 'ltr')
    expect(m.getByText(strings.connect_mobile_wallet)).toBeTruthy()
    expect(m.root.getElementById(`walletconnect-connect-button-${strings.connect}`)?.textContent).toBe(
      strings.connect,
    )
    expect(m.getByRole('tab', { name: strings.qrcode })).toBeTruthy()
    expect(m.getByRole('tab', { name: strings.mobile })).toBeTruthy()
    expect(m.root.getElementById('walletconnect-qrcode-close')?.getAttribute('aria-label')).toBe(
      strings.close,
    )
    m.getByRole('tab', { name: strings.qrcode }).click()
    expect(m.root.getElementById('walletconnect-qrcode-text')?.textContent).toBe(
      strings.scan_qrcode_with_wallet,
    )
    expect(m.getByRole('button', { name: strings.copy_to_clipboard })).toBeTruthy()
  })

  test('behavior: the language is the first of navigator.languages the modal ships', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT', 'ja-JP', 'de-DE'])
    createModal({ uri, platform: 'android' })
    expect(modal().getByText('モバイルウォレットに接続')).toBeTruthy()
    expect(modal().root.getElementById('walletconnect-qrcode-modal')?.getAttribute('lang')).toBe('ja')
  })

  test('behavior: the language follows navigator.language', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue([])
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-CH')
    createModal({ uri, platform: 'android' })
    expect(modal().getByText('Mit Mobile Wallet verbinden')).toBeTruthy()
  })

  test('behavior: the page <html lang> comes before navigator.language; the option before both', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-CH'])
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-CH')
    document.documentElement.lang = 'fr'
    try {
      createModal({ uri, platform: 'android' })
      expect(modal().getByText('Se connecter au portefeuille mobile')).toBeTruthy()
      createModal({ uri, platform: 'android', language: 'es-MX' })
      expect(modal().getByText(getStrings('es').connect_mobile_wallet)).toBeTruthy()
    } finally {
      document.documentElement.lang = ''
    }
  })

  test('behavior: an unshipped language falls back to English', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT'])
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('it-IT')
    createModal({ uri, platform: 'android' })
    expect(modal().getByText('Connect to Mobile Wallet')).toBeTruthy()
  })
})
