import { waitFor } from '@pairlink/test-kit'
import { afterEach, describe, expect, test } from 'vitest'
import { modal, uri } from '../test/fixtures.js'
import { hasStrings, loadStrings } from './locales/strings.js'
import { close, open, setStatus } from './open.js'

afterEach(() => {
  close()
  document.body.replaceChildren()
})

const wrapper = () => document.getElementById('walletconnect-wrapper')

describe('open: a language loaded on demand', () => {
  test('behavior: a modal in Japanese opens once its table is in, never in English first', async () => {
    expect(hasStrings('ja')).toBe(false)
    open(uri, () => {}, { platform: 'android', language: 'ja-JP' })
    expect(wrapper()).toBeNull()
    setStatus('unreachable')
    await waitFor(() => wrapper() !== null)
    const root = modal().root.getElementById('walletconnect-qrcode-modal')
    expect(root?.getAttribute('lang')).toBe('ja')
    expect(modal().getByText('モバイルウォレットに接続')).toBeTruthy()
    // A status set while it waited is the one it opens with.
    expect(modal().root.getElementById('bridge-status')?.textContent).toBe(
      'ブリッジに接続できません — 再試行しています…',
    )
  })

  test('behavior: close() before the table is in means no modal at all', async () => {
    expect(hasStrings('ko')).toBe(false)
    open(uri, () => {}, { platform: 'android', language: 'ko' })
    close()
    await loadStrings('ko')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(wrapper()).toBeNull()
  })

  test('error: an invalid URI throws at once, before any table is fetched', () => {
    expect(hasStrings('fa')).toBe(false)
    expect(() => open('https://example.com', () => {}, { language: 'fa' })).toThrow('URI format is invalid')
    expect(wrapper()).toBeNull()
  })
})
