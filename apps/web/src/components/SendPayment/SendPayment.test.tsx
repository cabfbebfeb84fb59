import { RpcError } from '@pairlink/protocol'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { numberToHex } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { type Answer, account, fakeWallet, renderConnected } from '../../../test/wallet.js'
import type { SentPayment } from '../../hooks/usePaymentHistory.js'
import { queryClient } from '../../wagmiConfig.js'
import { SendPayment, type SendPaymentProps } from './SendPayment.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
})

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = `0x${'ab'.repeat(32)}` as const

/** The card with wagmi connected to a session on `chainId`, its wallet and node answering with `answer`. */
async function renderCard(answer: Answer, props: Partial<SendPaymentProps> & { chainId: number }) {
  const wallet = fakeWallet(answer, props.chainId)
  const sent: SentPayment[] = []
  const card = (blockNumber: bigint) => (
    <SendPayment
      address={account.address}
      appChainId={31337}
      balance={10n ** 22n}
      blockNumber={blockNumber}
      signedIn={false}
      onSent={(payment) => sent.push(payment)}
      lastRecord={undefined}
      {...props}
    />
  )
  const view = await renderConnected(card(42n), wallet)
  const asked = () => wallet.asked.map(({ method }) => method)
  return { wallet, asked, sent, newBlock: (n: bigint) => act(async () => view.rerender(card(n))) }
}

async function send() {
  await act(async () => fireEvent.click(screen.getByTestId('payment-send-button')))
}

const statusText = () => screen.getByTestId('payment-status').textContent

describe('SendPayment', () => {
  test('default: the wallet sends; the receipt is read at each new block: pending → in block N → confirmations', async () => {
    let mined = false
    const { asked, sent, wallet, newBlock } = await renderCard(
      async (method) => {
        if (method === 'eth_getBalance') return '0x0'
        if (method === 'eth_sendTransaction') return HASH
        if (method === 'eth_getTransactionReceipt')
          return mined
            ? { transactionHash: HASH, blockNumber: numberToHex(43), status: '0x1', logs: [] }
            : null
        throw new Error(`unexpected ${method}`)
      },
      { chainId: 31337 },
    )
    await send()
    await waitFor(() => expect(statusText()).toBe('Pending: sent, waiting to be included in a block…'))
    expect(screen.getByTestId('payment-hash').textContent).toBe(HASH)
    expect(sent).toEqual([{ hash: HASH, to: RECIPIENT, value: 10n ** 16n }])
    const tx = wallet.asked.find(({ method }) => method === 'eth_sendTransaction')?.params
    expect(tx).toEqual([
      expect.objectContaining({ from: account.address, to: RECIPIENT, value: '0x2386f26fc10000' }),
    ])
    // Asked once on sending; no receipt yet, so the next block asks again.
    await waitFor(() => expect(asked().filter((m) => m === 'eth_getTransactionReceipt')).toHaveLength(1))
    mined = true
    await newBlock(43n)
    await waitFor(() => expect(statusText()).toBe('In block 43 · 1 confirmation'))
    await newBlock(45n)
    expect(statusText()).toBe('In block 43 · 3 confirmations')
    // Read no more once found; and never a block number of its own: the provider's block polling is the one clock.
    expect(asked().filter((m) => m === 'eth_getTransactionReceipt')).toHaveLength(2)
    expect(asked()).not.toContain('eth_blockNumber')
  })

  test('behavior: a reverted payment says so with its block', async () => {
    await renderCard(
      async (method) => {
        if (method === 'eth_getBalance') return '0x0'
        if (method === 'eth_sendTransaction') return HASH
        return { transactionHash: HASH, blockNumber: numberToHex(43), status: '0x0', logs: [] }
      },
      { chainId: 31337 },
    )
    await send()
    await waitFor(() => expect(statusText()).toBe('Failed: the payment was reverted in block 43'))
  })

  test('error: the wallet’s own failure, in its words; a refusal, plainly', async () => {
    let error: RpcError = new RpcError('Nonce too low.', { code: -32603 })
    await renderCard(
      async (method) => {
        if (method === 'eth_getBalance') return '0x0'
        throw error
      },
      { chainId: 31337 },
    )
    await send()
    await waitFor(() => expect(statusText()).toBe('The wallet could not send the payment: Nonce too low.'))
    expect(screen.getByTestId('payment-status').getAttribute('role')).toBe('alert')
    error = new RpcError('User rejected', { code: 4001 })
    await send()
    await waitFor(() => expect(statusText()).toBe('The wallet rejected the request.'))
  })

  test('error: v1 — a wallet on another chain is told to switch back; the wallet is not asked', async () => {
    const { asked } = await renderCard(async () => '0x0', { chainId: 1 })
    await send()
    const invalid = screen.getByTestId('payment-invalid')
    expect(invalid.textContent).toBe(
      'The wallet is on another chain (Ethereum (1)): payments here go on Anvil dev chain (31337). Switch the wallet back first.',
    )
    expect(invalid.getAttribute('data-field')).toBe('chain')
    expect(asked()).not.toContain('eth_sendTransaction')
  })

  test('error: protocol 2 — the session is on another chain, and Switch chain moves it back', async () => {
    const { asked } = await renderCard(async () => '0x0', { chainId: 1, protocol: 2 })
    await send()
    const invalid = screen.getByTestId('payment-invalid')
    expect(invalid.textContent).toBe(
      'This session is on another chain (Ethereum (1)): payments here go on Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) first.',
    )
    expect(invalid.getAttribute('data-field')).toBe('chain')
    expect(asked()).not.toContain('eth_sendTransaction')
  })
})
