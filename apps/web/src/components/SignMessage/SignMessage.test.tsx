import { RpcError } from '@pairlink/protocol'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { type Hex, stringToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { account, fakeWallet, renderConnected, signs } from '../../../test/wallet.js'
import { WalletPromptProvider, walletPrompt } from '../../hooks/useWalletPrompt.js'
import { en } from '../../i18n/en.js'
import { queryClient } from '../../wagmiConfig.js'
import { SignMessage } from './SignMessage.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
})

const sign = () => act(async () => fireEvent.click(screen.getByTestId('sign-message-button')))

describe('SignMessage', () => {
  test('default: the wallet signs the text as the account (personal_sign); the signature verifies', async () => {
    const wallet = fakeWallet()
    await renderConnected(<SignMessage address={account.address} />, wallet)
    await sign()
    const verified = await screen.findByTestId('sign-message-verified')
    expect(verified.getAttribute('data-verified')).toBe('true')
    expect(verified.textContent).toBe('✓ Signature verified: signed by this account.')
    expect(wallet.asked).toEqual([
      { method: 'personal_sign', params: [stringToHex('Hello from Pairlink!'), account.address] },
    ])
  })

  test('behavior: a signature by another key does not verify, and says so', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    const wallet = fakeWallet(async (_, params) =>
      other.signMessage({ message: { raw: (params as [Hex])[0] } }),
    )
    await renderConnected(<SignMessage address={account.address} />, wallet)
    await sign()
    const verified = await screen.findByTestId('sign-message-verified')
    expect(verified.textContent).toBe('✗ The signature does not match this account.')
  })

  test('behavior: Cancel stops the wait; the wallet’s late signature is ignored', async () => {
    let answer: ((signature: unknown) => void) | undefined
    const wallet = fakeWallet((method, params) => {
      const signature = signs(method, params)
      return new Promise((resolve) => {
        answer = () => resolve(signature)
      })
    })
    await renderConnected(<SignMessage address={account.address} />, wallet)
    await sign()
    expect(screen.getByTestId('sign-message-button').textContent).toBe('Confirm in your wallet…')
    fireEvent.click(screen.getByTestId('sign-message-cancel'))
    expect(screen.getByTestId('sign-message-error').textContent).toBe(en.stopped_waiting)
    await act(async () => answer?.(undefined))
    expect(screen.queryByTestId('sign-message-verified')).toBeNull()
    expect(screen.getByTestId('sign-message-error').textContent).toBe(en.stopped_waiting)
    expect(screen.getByTestId('sign-message-button').textContent).toBe('Sign message')
  })

  test('behavior: the waiting button names the wallet, brought forward (on a phone) before the request goes out', async () => {
    const order: string[] = []
    const wallet = fakeWallet((method) => {
      order.push(method)
      return new Promise(() => {})
    })
    const prompt = walletPrompt({ name: 'MetaMask', paired: true, focus: () => order.push('focus') })
    await renderConnected(
      <WalletPromptProvider value={prompt}>
        <SignMessage address={account.address} />
      </WalletPromptProvider>,
      wallet,
    )
    await sign()
    expect(screen.getByTestId('sign-message-button').textContent).toBe('Confirm in MetaMask…')
    await waitFor(() => expect(order).toEqual(['focus', 'personal_sign']))
  })

  test('error: the wallet refuses → a plain message, through wagmi’s and viem’s wrapping', async () => {
    const wallet = fakeWallet(async () => {
      throw new RpcError('User rejected the request', { code: 4001 })
    })
    await renderConnected(<SignMessage address={account.address} />, wallet)
    await sign()
    await waitFor(() =>
      expect(screen.getByTestId('sign-message-error').textContent).toBe('The wallet rejected the request.'),
    )
  })
})
