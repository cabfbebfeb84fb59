import { describe, expect, test } from 'vitest'
import { getMonogram } from './getMonogram.js'

describe('getMonogram', () => {
  test('default', () => {
    expect(getMonogram({ name: 'Rainbow', shortName: 'Rainbow', color: '#001e59' })).toEqual({
      initials: 'R',
      background: '#001e59',
      foreground: '#fff',
    })
  })

  test('behavior: initials', () => {
    const initials = (name: string, shortName = '') => getMonogram({ name, shortName, color: '' }).initials
    expect(initials('Trust Wallet')).toBe('TW')
    expect(initials('MetaMask')).toBe('MM')
    expect(initials('imToken')).toBe('IT')
    expect(initials("D'CENT Wallet")).toBe('DC')
    expect(initials('Crypto.com | DeFi Wallet', 'Crypto.com')).toBe('CC')
    expect(initials('1inch Wallet')).toBe('1W')
  })

  test('behavior: white or black text, whichever contrasts more; on near-white a deep colour from the name', () => {
    expect(getMonogram({ name: 'X', shortName: '', color: '#000000' }).foreground).toBe('#fff')
    expect(getMonogram({ name: 'X', shortName: '', color: '#1199fa' }).foreground).toBe('#111')
    const metaMask = getMonogram({ name: 'MetaMask', shortName: '', color: '#ffffff' })
    expect(metaMask.background).toBe('#ffffff')
    expect(metaMask.foreground).toMatch(/^hsl\(\d+ 60% 32%\)$/)
    expect(getMonogram({ name: 'MetaMask', shortName: '', color: '#fff' }).foreground).toBe(
      metaMask.foreground,
    )
    expect(getMonogram({ name: 'Pillar', shortName: '', color: '#fff' }).foreground).not.toBe(
      metaMask.foreground,
    )
  })

  test('args: no or invalid colour — a stable colour from the name', () => {
    const a = getMonogram({ name: 'CoolWallet', shortName: '', color: '' })
    expect(a.background).toMatch(/^hsl\(\d+ 60% 36%\)$/)
    expect(getMonogram({ name: 'CoolWallet', shortName: '', color: 'red;background:url(x)' })).toEqual(a)
  })
})
