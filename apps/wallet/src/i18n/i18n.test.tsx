import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { PairForm } from '../components/PairForm/PairForm.js'
import { setupLanguage, t } from './i18n.js'

afterEach(async () => {
  await setupLanguage(['en'])
})

describe('the wallet page’s language', () => {
  test('default: an unsupported browser language gives English', async () => {
    expect(await setupLanguage(['it-IT'])).toBe('en')
    render(<PairForm value="" onChange={() => {}} onPair={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Connect to a dapp' })).toBeTruthy()
  })

  test('behavior: the first of navigator.languages Pairlink ships, said on <html lang dir>', async () => {
    expect(await setupLanguage(['nl', 'ja-JP', 'de'])).toBe('ja')
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ja', 'ltr'])
    render(<PairForm value="" onChange={() => {}} onPair={() => {}} />)
    expect(screen.getByRole('heading', { name: 'dapp に接続' })).toBeTruthy()
    expect(screen.getByRole('button', { name: '接続' })).toBeTruthy()
  })

  test('behavior: Persian is right to left; placeholders filled', async () => {
    await setupLanguage(['fa-IR'])
    expect(document.documentElement.dir).toBe('rtl')
    expect(t('connected_to', { dapp: 'Pairlink' })).toBe('متصل به Pairlink')
  })
})
