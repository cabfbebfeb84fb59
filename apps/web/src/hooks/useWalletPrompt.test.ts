import { describe, expect, test } from 'vitest'
import { walletPrompt } from './useWalletPrompt.js'

describe('walletPrompt', () => {
  test('default: names the wallet; brings it forward for a paired session', () => {
    let focused = 0
    const prompt = walletPrompt({ name: ' MetaMask ', paired: true, focus: () => focused++ })
    expect(prompt.waiting).toBe('Confirm in MetaMask…')
    prompt.focus()
    expect(focused).toBe(1)
  })

  test('args: no name — your wallet; a browser wallet is not opened by link', () => {
    let focused = 0
    const prompt = walletPrompt({ name: '', paired: false, focus: () => focused++ })
    expect(prompt.waiting).toBe('Confirm in your wallet…')
    prompt.focus()
    expect(focused).toBe(0)
  })
})
